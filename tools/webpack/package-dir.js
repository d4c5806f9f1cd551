// Where a frontend resolves a package from: workspace packages (ui, api-client) compiled from their
// sources would otherwise pick up their own nested copies (packages/ui/node_modules/react-i18next
// resolves i18next 27 from the root), giving two instances of a library that must be a singleton.
const fs = require('node:fs');
const path = require('node:path');

/** Directory of package `name` as seen from `fromDir`, walking up node_modules folders. */
function packageDir(name, fromDir) {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`Cannot find package ${name} from ${fromDir}`);
  }
}

module.exports = { packageDir };
