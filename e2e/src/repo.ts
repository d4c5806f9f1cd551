import path from 'node:path';

/** The repository root: the harness starts the built platform from there, as `npm start` does. */
export const repoRoot = path.resolve(__dirname, '..', '..');
