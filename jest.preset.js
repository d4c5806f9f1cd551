// Shared jest settings for every workspace: TypeScript/TSX through swc, workspace packages resolved
// to their sources (the "source" export condition), ESM-only dependencies transformed to CommonJS.
const path = require('node:path');

// Pact's native library reads the real process environment, not jest's sandboxed copy: set it here,
// in the process that loads the config and forks the workers.
process.env.PACT_DO_NOT_TRACK = 'true';

// Transformed to CommonJS: ESM-only packages, and PGlite, whose CommonJS build loads Node built-ins
// with import(), which jest's module sandbox refuses without --experimental-vm-modules.
const transformedDependencies = [
  '@electric-sql/pglite',
  'https-proxy-agent',
  'agent-base',
  'proxy-agent-negotiate',
  'jose',
  'otplib',
  '@otplib',
  '@scure',
  '@noble',
  'uuid',
  'nanoid',
];

/** @param {{ dir: string, environment?: 'node' | 'jsdom' }} options */
function jestConfig({ dir, environment = 'node' }) {
  const browser = environment === 'jsdom';
  return {
    rootDir: dir,
    testEnvironment: environment,
    testEnvironmentOptions: {
      customExportConditions: browser
        ? ['source', 'browser', 'require', 'default']
        : ['source', 'node', 'require', 'default'],
      // Jest 30 "soft-deletes" what a test file left on the global scope by wrapping each property in an
      // accessor whose setter, for a plain value, sets the property again through itself: the next write
      // overflows the stack. Sentry writes `__SENTRY__.version` on every use, so a worker crashed with
      // "Maximum call stack size exceeded" after a suite that reported errors. Every test here closes what it
      // starts; the clean-up only warns, so it is off.
      globalsCleanup: 'off',
    },
    transform: {
      '^.+\\.(t|j|mj|cj)sx?$': [
        require.resolve('@swc/jest'),
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            target: 'es2022',
            transform: { react: { runtime: 'automatic' } },
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    transformIgnorePatterns: [`/node_modules/(?!(${transformedDependencies.join('|')})/)`],
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
    testMatch: ['<rootDir>/src/**/*.test.ts?(x)', '<rootDir>/test/**/*.test.ts?(x)'],
    setupFiles: [path.join(__dirname, 'tools/jest-env.js')],
    // Hooks share this limit, and many files make their databases in `beforeAll`: PGlite's initdb and a service's
    // migrations in WebAssembly took over 30 s there on a loaded 2-core machine (CI, 2026-12-07).
    testTimeout: 60000,
  };
}

module.exports = { jestConfig };
