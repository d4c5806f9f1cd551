const { frontendConfig } = require('../tools/webpack');

module.exports = frontendConfig({ dir: __dirname, role: 'host', copy: ['locales', 'remotes.json'] });
