const { jestConfig } = require('../jest.preset.js');

// Journeys start whole platforms and a browser: one file at a time, generous timeouts. The global set-up names the
// folder of the run's template database (src/standalone.ts).
module.exports = {
  ...jestConfig({ dir: __dirname }),
  testTimeout: 180000,
  maxWorkers: 1,
  globalSetup: '<rootDir>/jest.global-setup.js',
  globalTeardown: '<rootDir>/jest.global-teardown.js',
};
