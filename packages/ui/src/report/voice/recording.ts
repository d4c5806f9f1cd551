import { VOICE_SAMPLE_RATE } from './voice-disguise';

/** Spec of issue #26: a voice message lasts at most 10 minutes (a 19.2 MB WAV at 16 kHz, under the 25 MB limit). */
export const MAX_RECORDING_SECONDS = 600;

/** Why the recorder cannot record: the microphone refused, none there, or a browser without recording. */
export type MicrophoneProblem = 'refused' | 'absent' | 'unsupported';

export function microphoneProblemOf(error: unknown): MicrophoneProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'refused';
  return 'absent';
}

export const canRecord = () =>
  typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia && typeof MediaRecorder !== 'undefined';

/**
 * The browser's recording decoded to 16 kHz mono samples: the OfflineAudioContext decodes at its own rate, so
 * the browser does the resampling. The samples stay in the page's memory.
 */
export async function decodeRecording(recording: Blob): Promise<Float32Array> {
  const context = new OfflineAudioContext(1, 1, VOICE_SAMPLE_RATE);
  const buffer = await context.decodeAudioData(await recording.arrayBuffer());
  if (buffer.numberOfChannels === 1) return buffer.getChannelData(0);
  const mono = new Float32Array(buffer.length);
  for (let channel = 0; channel < buffer.numberOfChannels; channel++) {
    const data = buffer.getChannelData(channel);
    for (let n = 0; n < mono.length; n++) mono[n] += data[n] / buffer.numberOfChannels;
  }
  return mono;
}

/** How loud the microphone is now, 0 to 1 (a root mean square scaled so speech moves the meter well). */
export function levelOf(analyser: AnalyserNode, frame: Float32Array<ArrayBuffer>): number {
  analyser.getFloatTimeDomainData(frame);
  let energy = 0;
  for (const value of frame) energy += value * value;
  return Math.min(1, 4 * Math.sqrt(energy / frame.length));
}

/** Seconds as m:ss, the way the recorder's timer shows them. */
export const formatDuration = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;
