// Kept apart so tests can replace it: `import.meta.url` is how webpack finds and bundles the worker.
export const startCaseWorker = (): Worker =>
  new Worker(new URL('./case.worker.ts', import.meta.url), { name: 'whistle-cases' });
