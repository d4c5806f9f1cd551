const { frontendJestConfig } = require('../tools/webpack/jest');

module.exports = frontendJestConfig(__dirname);
