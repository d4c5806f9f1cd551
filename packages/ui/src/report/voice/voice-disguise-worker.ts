/** Its own module, so tests can stand in for the worker (jsdom has none, nor does webpack's URL run there). */
export const startVoiceDisguiseWorker = (): Worker =>
  new Worker(new URL('./voice-disguise.worker.ts', import.meta.url), { name: 'whistle-voice-disguise' });
