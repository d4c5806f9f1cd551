const config = require('../../jest.preset.js').jestConfig({ dir: __dirname });
// PGlite's CommonJS build loads Node built-ins with import(), which jest's module sandbox refuses
// without --experimental-vm-modules; running that one file through swc turns them into require().
const [[, swc]] = Object.entries(config.transform);
config.transform['^.+\\.cjs$'] = swc;
config.transformIgnorePatterns = config.transformIgnorePatterns.map((pattern) => pattern.replace('(?!(', '(?!(@electric-sql/pglite|'));
module.exports = config;
