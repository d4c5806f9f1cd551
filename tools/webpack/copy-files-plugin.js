// Copies static files (locales, remotes.json) into the build output. JSON is parsed on the way so a
// broken translation file fails the build instead of the page.
const fs = require('node:fs');
const path = require('node:path');

function listFiles(root) {
  if (!fs.statSync(root).isDirectory()) return [root];
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((entry) => listFiles(path.join(root, entry.name)));
}

class CopyFilesPlugin {
  /** @param {{ context: string, paths: string[] }} options paths relative to `context`, kept as-is in the output */
  constructor({ context, paths }) {
    this.context = context;
    this.paths = paths;
  }

  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap(CopyFilesPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: CopyFilesPlugin.name, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const relative of this.paths) {
            const root = path.join(this.context, relative);
            compilation.contextDependencies.add(root);
            for (const file of listFiles(root)) {
              const content = fs.readFileSync(file);
              if (file.endsWith('.json')) {
                try {
                  JSON.parse(content.toString('utf8'));
                } catch (error) {
                  compilation.errors.push(new compiler.webpack.WebpackError(`${file}: ${error.message}`));
                }
              }
              const name = path.relative(this.context, file).split(path.sep).join('/');
              compilation.emitAsset(name, new RawSource(content));
            }
          }
        },
      );
    });
  }
}

module.exports = { CopyFilesPlugin };
