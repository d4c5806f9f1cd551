// Kept apart so tests can replace it: `import.meta.url` is how webpack finds and bundles the worker.
export const startRewrapWorker = (): Worker =>
  new Worker(new URL('./company-key-rewrap.worker.ts', import.meta.url), { name: 'whistle-key-rotation' });
