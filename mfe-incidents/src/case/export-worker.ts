// Kept apart so tests can replace it: `import.meta.url` is how webpack finds and bundles the worker.
export const startExportWorker = (): Worker =>
  new Worker(new URL('./export.worker.ts', import.meta.url), { name: 'whistle-csv-export' });
