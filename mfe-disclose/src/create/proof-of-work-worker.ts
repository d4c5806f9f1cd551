/** Its own module, so tests can stand in for the worker (jsdom has none, nor does webpack's URL run there). */
export const startProofOfWorkWorker = (): Worker =>
  new Worker(new URL('./proof-of-work.worker.ts', import.meta.url), { name: 'whistle-proof-of-work' });
