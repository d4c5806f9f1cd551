// Kept apart so tests can replace it: `import.meta.url` is how webpack finds and bundles the worker.
export const startSearchWorker = (): Worker =>
  new Worker(new URL('./search.worker.ts', import.meta.url), { name: 'whistle-case-search' });
