const { rmSync } = require('node:fs');

module.exports = async () => {
  const folder = process.env.WHISTLE_E2E_TEMPLATE_DIR;
  if (folder) rmSync(folder, { recursive: true, force: true });
};
