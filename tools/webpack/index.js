// One webpack configuration for every Whistle frontend (shell host and remotes), so the Module
// Federation contract (names, public paths, shared singletons) is defined in one place.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { gzip: zopfliGzip } = require('@gfx/zopfli');
const CompressionPlugin = require('compression-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { ChunkGroupsPlugin } = require('./chunk-groups-plugin');
const { CopyFilesPlugin } = require('./copy-files-plugin');
const { packageDir } = require('./package-dir');

/** zod's locales index replaced by English alone (see zod-locales.js), with the webpack that builds. */
const onlyEnglishZodLocales = {
  apply(compiler) {
    const zodLocales = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;
    new compiler.webpack.NormalModuleReplacementPlugin(zodLocales, path.join(__dirname, 'zod-locales.js')).apply(
      compiler,
    );
  },
};

/** Shared with the host, one instance per page. Sub-paths are named so react-dom is not bundled twice. */
const SINGLETONS = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react-router',
  'i18next',
  'react-i18next',
  '@whistle/ui',
  // The staff remotes' frame: an entry of its own, so the discloser pages never load it.
  '@whistle/ui/staff',
  // Report pages' shared pieces (files, formatting, review order): the landing page never loads them.
  '@whistle/ui/report',
];
/** Packages that exist in several copies under node_modules: pinned to the one the frontend itself resolves. */
const DEDUPED = ['i18next', 'react-i18next'];
/** Shared through a re-export of the part the frontends use (see shared/*.js). */
const FACADES = ['react-router', 'react-i18next'];

const packageName = (request) =>
  request
    .split('/')
    .slice(0, request.startsWith('@') ? 2 : 1)
    .join('/');

function sharedSingletons(pkg, dir) {
  return Object.fromEntries(
    SINGLETONS.map((request) => {
      const requiredVersion = pkg.dependencies?.[packageName(request)];
      if (!requiredVersion) throw new Error(`${pkg.name} must depend on ${packageName(request)} to share it`);
      const shared = { singleton: true, requiredVersion };
      if (FACADES.includes(request)) {
        const { version } = require(path.join(packageDir(request, dir), 'package.json'));
        Object.assign(shared, { import: path.join(__dirname, 'shared', `${request}.js`), version });
      }
      return [request, shared];
    }),
  );
}

/** Text assets: each gets `.br` and `.gz` siblings, served by the standalone server and nginx by Accept-Encoding. */
const TEXT_ASSETS = /\.(js|css|html|json|svg)$/;

/**
 * Brotli at its highest level and gzip by Zopfli, once at build time, so no server compresses per request. Zopfli
 * writes plain gzip that any reader takes, 3–4 % smaller than zlib's level 9: that is what the nginx images send
 * (they have no Brotli), and it keeps the landing page under its budget there. Five iterations: fifteen save
 * 0.03 % more and take twice as long.
 */
const precompression = () => [
  new CompressionPlugin({
    test: TEXT_ASSETS,
    algorithm: 'brotliCompress',
    compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
    filename: '[path][base].br',
    minRatio: 1,
  }),
  new CompressionPlugin({
    test: TEXT_ASSETS,
    algorithm: (input, options, callback) => zopfliGzip(input, options, callback),
    compressionOptions: { numiterations: 5 },
    filename: '[path][base].gz',
    minRatio: 1,
  }),
];

/** Module Federation name of a frontend folder: `mfe-disclose` → `mfe_disclose` (a JS identifier). */
const federationName = (dir) => path.basename(dir).replace(/-/g, '_');

/**
 * @param {object} options
 * @param {string} options.dir package folder (`__dirname` of its webpack.config.js)
 * @param {'host' | 'remote'} options.role
 * @param {Record<string, string>} [options.exposes] remote exposes
 * @param {string[]} [options.copy] files or folders copied as-is into dist (default `locales`)
 */
function frontendConfig({ dir, role, exposes, copy = ['locales'] }) {
  const pkg = require(path.join(dir, 'package.json'));
  const name = federationName(dir);
  const host = role === 'host';
  return (_env, argv) => {
    const production = (argv.mode ?? 'production') === 'production';
    return {
      mode: production ? 'production' : 'development',
      context: dir,
      // A remote is only reached through its federation container; the host boots from src/index.ts.
      entry: host ? { main: './src/index.ts' } : {},
      output: {
        path: path.join(dir, 'dist'),
        // Remotes are served under /remotes/<folder>/ (routing table in @whistle/contracts).
        publicPath: host ? '/' : `/remotes/${path.basename(dir)}/`,
        uniqueName: name,
        // A content hash in `filename` breaks the federation runtime: only chunks are hashed.
        filename: '[name].js',
        chunkFilename: '[name].[contenthash:8].js',
        assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
        clean: true,
      },
      devtool: production ? false : 'eval-cheap-module-source-map',
      resolve: {
        extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
        // Workspace packages are compiled from their TypeScript sources.
        conditionNames: ['source', '...'],
        alias: {
          ...Object.fromEntries(DEDUPED.map((request) => [`${request}$`, packageDir(request, dir)])),
          // What the facades in shared/ re-export from; a name of its own so it is not consumed as shared.
          'react-i18next-implementation$': packageDir('react-i18next', dir),
          // The plugin that hands the host's federation runtime to the remotes is CommonJS: pointed at the
          // ES build the host bundles anyway, the runtime is in main.js once instead of twice (+88 KB).
          '@module-federation/runtime-tools/runtime-core$': path.join(
            packageDir('@module-federation/runtime-core', dir),
            'dist/index.js',
          ),
          // The package exports of react-router only point at its development build.
          'react-router-implementation$': production
            ? path.join(packageDir('react-router', dir), 'dist/production/index.mjs')
            : packageDir('react-router', dir),
        },
      },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  target: 'es2022',
                  transform: { react: { runtime: 'automatic' } },
                },
              },
            },
          },
          { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
          { test: /\.svg$/, type: 'asset/resource' },
          // A ready-made worker script a page starts with `new Worker(new URL(...))` kept apart (pdf.js's): copied as
          // it is, under a .js name, as servers without an .mjs type would send it as a download and the browser refuse it.
          {
            test: /\.mjs$/,
            dependency: 'url',
            type: 'asset/resource',
            generator: { filename: 'assets/[name].[contenthash:8].js' },
          },
          // Schemas, country list and routing table: no module has side effects, so importing the
          // country list does not drag zod and every schema into the bundle. One exception: zod.ts sets zod's
          // options before any schema is made (as the package's own `sideEffects` says).
          {
            include: path.resolve(__dirname, '../../packages/contracts/src'),
            exclude: path.resolve(__dirname, '../../packages/contracts/src/zod.ts'),
            sideEffects: false,
          },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          ...(host ? {} : { filename: 'remoteEntry.js', exposes }),
          shared: sharedSingletons(pkg, dir),
          // 'version-first' would fetch every registered remote at start-up to compare versions: the
          // discloser landing page would download the staff remotes too.
          shareStrategy: 'loaded-first',
          manifest: true,
          // Trim the federation runtime: browser only; one copy per page, the shell's, which the remotes
          // use instead of bundling their own (remoteEntry.js: 17 → 7 KB Brotli), so a remote is only
          // ever loaded by the shell. A remote loads no other remote and reads no manifest: its part of
          // the bundler runtime drops the remote-loading and snapshot code.
          experiments: {
            optimization: host ? { target: 'web' } : { target: 'web', disableRemote: true, disableSnapshot: true },
            ...(host ? { provideExternalRuntime: true } : { externalRuntime: true }),
          },
          // Type generation needs the TypeScript compiler API, which TypeScript 7 no longer has.
          dts: false,
        }),
        // CSS files: the Content-Security-Policy allows `style-src 'self'` (the standalone server inlines a drawn
        // page's first stylesheets, allowed by their hashes).
        new MiniCssExtractPlugin({ filename: '[name].css', chunkFilename: '[name].[contenthash:8].css' }),
        new CopyFilesPlugin({ context: dir, paths: copy }),
        onlyEnglishZodLocales,
        new ChunkGroupsPlugin(),
        // The page as plain text: a `template` is compiled by a child compiler, which the federation
        // plugin would make emit node-format copies of the shared modules into dist.
        ...(host
          ? [
              new HtmlWebpackPlugin({
                templateContent: fs.readFileSync(path.join(dir, 'src/index.html'), 'utf8'),
                chunks: ['main'],
                scriptLoading: 'defer',
              }),
            ]
          : []),
        ...precompression(),
      ],
      performance: { hints: false },
      stats: 'errors-warnings',
    };
  };
}

module.exports = { frontendConfig };
