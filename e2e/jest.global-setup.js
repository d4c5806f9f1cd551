// One template database per run (src/standalone.ts, `templateDatabase`): the folder is named here, made by the
// first journey that starts a standalone platform, and removed at the end of the run.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

module.exports = async () => {
  process.env.WHISTLE_E2E_TEMPLATE_DIR = mkdtempSync(path.join(tmpdir(), 'whistle-e2e-template-'));
};
