const { frontendConfig } = require('../tools/webpack');

module.exports = frontendConfig({
  dir: __dirname,
  role: 'remote',
  exposes: { './lifecycles': './src/lifecycles.tsx' },
});
