import { VOICE_SAMPLE_RATE, disguiseVoiceInSteps, type DisguiseStrength } from './voice-disguise';
import { encodeWav } from './wav';

/** What the page asks the worker: the recording's 16 kHz samples (a copy: the page keeps its own) and a strength. */
export interface DisguiseRequest {
  samples: Float32Array;
  strength: DisguiseStrength;
}

/** What the worker answers: progress (0 to 1), then the disguised voice as a WAV, or that it failed. */
export type DisguiseMessage =
  { type: 'progress'; fraction: number } | { type: 'done'; wav: Uint8Array } | { type: 'failed' };

/**
 * The worker's side: disguises and encodes, telling the progress. Its slices can be longer than on the page (no
 * page to keep responsive, only the progress to tell), so fewer yields.
 */
export async function runDisguiseJob(
  { samples, strength }: DisguiseRequest,
  post: (message: DisguiseMessage, transfer?: Transferable[]) => void,
) {
  try {
    const disguised = await disguiseVoiceInSteps(samples, strength, {
      sliceMs: 100,
      onProgress: (fraction) => post({ type: 'progress', fraction }),
    });
    const wav = encodeWav(disguised, VOICE_SAMPLE_RATE);
    // The WAV's bytes are handed over, not copied (19 MB for 10 minutes).
    post({ type: 'done', wav }, [wav.buffer as ArrayBuffer]);
  } catch {
    post({ type: 'failed' });
  }
}

/**
 * The page's side: disguises `samples` in `worker` (off the page's thread: the page stays responsive however long
 * the recording) and answers the WAV. The worker is ended when done, failed or stopped by `signal`.
 */
export function disguiseInWorker(
  worker: Worker,
  samples: Float32Array,
  strength: DisguiseStrength,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const end = (settle: () => void) => {
      worker.terminate();
      signal?.removeEventListener('abort', stopped);
      settle();
    };
    const stopped = () => end(() => reject(signal?.reason));
    if (signal?.aborted) return stopped();
    signal?.addEventListener('abort', stopped);
    worker.onmessage = ({ data }: MessageEvent<DisguiseMessage>) => {
      if (data.type === 'progress') onProgress?.(data.fraction);
      else if (data.type === 'done') end(() => resolve(data.wav));
      else end(() => reject(new Error('The voice could not be disguised')));
    };
    worker.onerror = () => end(() => reject(new Error('The voice disguise could not start')));
    worker.postMessage({ samples, strength } satisfies DisguiseRequest);
  });
}
