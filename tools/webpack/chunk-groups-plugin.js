// Writes chunk-groups.json, what a server that draws a page needs to hint that page's files (which the browser would
// otherwise find only once the code before them has run: a round trip each on a slow network):
// - `groups`: for each chunk group named with `webpackChunkName` (a route's page, the shell's bootstrap), the script
//   and stylesheet files of its chunks and the shared modules it consumes through the federation share scope;
// - `provides`: for each shared module this build provides, the files its share-scope loader fetches.
const CONSUME_SHARED = 'consume-shared-module';
const PROVIDE_SHARED = 'provide-module';

const byType = (files) => ({
  js: files.filter((file) => file.endsWith('.js')).sort(),
  css: files.filter((file) => file.endsWith('.css')).sort(),
});
const filesOf = (chunks) => [...new Set(chunks.flatMap((chunk) => [...chunk.files]))];

function chunkGroups(compilation) {
  const groups = {};
  for (const [name, group] of compilation.namedChunkGroups) {
    if (group.isInitial()) continue;
    const shared = group.chunks.flatMap((chunk) =>
      compilation.chunkGraph
        .getChunkModules(chunk)
        .filter((module) => module.type === CONSUME_SHARED)
        .map((module) => module.options.shareKey),
    );
    groups[name] = { ...byType(filesOf(group.chunks)), shared: [...new Set(shared)].sort() };
  }
  return groups;
}

function provides(compilation) {
  const provided = {};
  for (const module of compilation.modules) {
    // A lazily provided module loads its chunks through its one async block; an eager one has none to fetch.
    if (module.type !== PROVIDE_SHARED || module.blocks.length === 0) continue;
    const group = compilation.chunkGraph.getBlockChunkGroup(module.blocks[0]);
    if (group) provided[module._name] = byType(filesOf(group.chunks));
  }
  return provided;
}

class ChunkGroupsPlugin {
  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap(ChunkGroupsPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap(
        // After the files have their final (content-hashed) names.
        { name: ChunkGroupsPlugin.name, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ANALYSE },
        () => {
          const json = JSON.stringify({ groups: chunkGroups(compilation), provides: provides(compilation) }, null, 2);
          compilation.emitAsset('chunk-groups.json', new RawSource(`${json}\n`));
        },
      );
    });
  }
}

module.exports = { ChunkGroupsPlugin };
