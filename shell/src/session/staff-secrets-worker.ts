/** Its own module, so tests can stand in for the worker (jsdom has none, nor does webpack's URL run there). */
export const startStaffSecretsWorker = (): Worker =>
  new Worker(new URL('./staff-secrets.worker.ts', import.meta.url), { name: 'whistle-staff-secrets' });
