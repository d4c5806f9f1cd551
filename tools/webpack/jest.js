// Jest settings of the frontends: the shared preset in jsdom, plus what webpack does for them
// (CSS/SVG imports, one copy of i18next/react-i18next whichever package imports it).
const { jestConfig } = require('../../jest.preset');
const { packageDir } = require('./package-dir');

function frontendJestConfig(dir) {
  return {
    ...jestConfig({ dir, environment: 'jsdom' }),
    testEnvironment: require.resolve('./jsdom-environment.js'),
    moduleNameMapper: {
      '\\.(css|svg)$': require.resolve('./asset-stub.js'),
      '^i18next$': packageDir('i18next', dir),
      '^react-i18next$': packageDir('react-i18next', dir),
    },
    setupFilesAfterEnv: [
      require.resolve('@testing-library/jest-dom'),
      require.resolve('../jest-dom-env.js'),
      require.resolve('./pact-consumer-retry.js'),
    ],
  };
}

module.exports = { frontendJestConfig };
