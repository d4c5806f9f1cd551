// One webpack configuration for every Whistle frontend (shell host and remotes), so the Module
// Federation contract (names, public paths, shared singletons) is defined in one place.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { CopyFilesPlugin } = require('./copy-files-plugin');
const { packageDir } = require('./package-dir');

/** Shared with the host, one instance per page. Sub-paths are named so react-dom is not bundled twice. */
const SINGLETONS = [
  'react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react-router', 'i18next', 'react-i18next', '@whistle/ui',
];
/** Packages that exist in several copies under node_modules: pinned to the one the frontend itself resolves. */
const DEDUPED = ['i18next', 'react-i18next'];

const packageName = (request) => request.split('/').slice(0, request.startsWith('@') ? 2 : 1).join('/');

function sharedSingletons(pkg) {
  return Object.fromEntries(SINGLETONS.map((request) => {
    const requiredVersion = pkg.dependencies?.[packageName(request)];
    if (!requiredVersion) throw new Error(`${pkg.name} must depend on ${packageName(request)} to share it`);
    return [request, { singleton: true, requiredVersion }];
  }));
}

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
          // The package exports only point at the development build (warnings, dev checks).
          ...(production && {
            'react-router$': path.join(packageDir('react-router', dir), 'dist/production/index.mjs'),
          }),
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
          // Schemas, country list and routing table: no module has side effects, so importing the
          // country list does not drag zod and every schema into the bundle.
          { include: path.resolve(__dirname, '../../packages/contracts/src'), sideEffects: false },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          ...(host ? {} : { filename: 'remoteEntry.js', exposes }),
          shared: sharedSingletons(pkg),
          manifest: true,
          // Type generation needs the TypeScript compiler API, which TypeScript 7 no longer has.
          dts: false,
        }),
        // CSS files, never inline styles: the Content-Security-Policy allows `style-src 'self'` only.
        new MiniCssExtractPlugin({ filename: '[name].css', chunkFilename: '[name].[contenthash:8].css' }),
        new CopyFilesPlugin({ context: dir, paths: copy }),
        ...(host ? [new HtmlWebpackPlugin({ template: './src/index.html', chunks: ['main'], scriptLoading: 'defer' })] : []),
      ],
      performance: { hints: false },
      stats: 'errors-warnings',
    };
  };
}

module.exports = { frontendConfig, federationName };
