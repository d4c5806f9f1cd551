const { jestConfig } = require('../../jest.preset');

module.exports = jestConfig({ dir: __dirname });
