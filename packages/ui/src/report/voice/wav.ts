/**
 * Mono samples (-1 to 1) as a 16-bit PCM WAV file: the format every browser and media player plays, with no
 * encoder to ship. At 16 kHz a minute is 1.92 MB, so the 10 minutes the recorder allows stay under 25 MB.
 */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const dataBytes = samples.length * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[offset + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true); // size of the format chunk
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let n = 0; n < samples.length; n++) {
    const clamped = Math.max(-1, Math.min(1, samples[n]));
    view.setInt16(44 + 2 * n, Math.round(clamped * 0x7fff), true);
  }
  return bytes;
}

/** The size of the WAV file `encodeWav` makes of this many samples (checked before encoding). */
export const wavSize = (sampleCount: number) => 44 + sampleCount * 2;
