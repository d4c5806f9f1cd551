const config = require('../../jest.preset.js').jestConfig({ dir: __dirname });
// PGlite's CommonJS build loads Node built-ins with import(), which jest's module sandbox refuses;
// transforming it through swc turns those into require().
config.transformIgnorePatterns = config.transformIgnorePatterns.map((pattern) => pattern.replace('(?!(', '(?!(@electric-sql/pglite|'));
module.exports = config;
