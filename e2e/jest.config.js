const { jestConfig } = require('../jest.preset.js');

// Journeys start whole platforms and a browser: one file at a time, generous timeouts.
module.exports = { ...jestConfig({ dir: __dirname }), testTimeout: 180000, maxWorkers: 1 };
