import { DISGUISE_STRENGTHS, VOICE_SAMPLE_RATE, disguiseVoice, disguiseVoiceInSteps } from './voice-disguise';
import { encodeWav, wavSize } from './wav';

/** A vowel-like test voice: a 220 Hz tone with its harmonics, rising and falling in loudness. */
function testVoice(seconds: number, fundamentalHz = 220): Float32Array {
  const samples = new Float32Array(seconds * VOICE_SAMPLE_RATE);
  for (let n = 0; n < samples.length; n++) {
    const t = n / VOICE_SAMPLE_RATE;
    let value = 0;
    for (let harmonic = 1; harmonic <= 8; harmonic++)
      value += Math.sin(2 * Math.PI * fundamentalHz * harmonic * t) / harmonic;
    samples[n] = 0.3 * value * (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t));
  }
  return samples;
}

/** The signal's power at one frequency (Goertzel), over its whole length. */
function powerAt(signal: Float32Array, hz: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / VOICE_SAMPLE_RATE);
  let s1 = 0,
    s2 = 0;
  for (const x of signal) {
    const s = x + coefficient * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / signal.length;
}

/** The strongest frequency between 60 and 1000 Hz, in 2 Hz steps: the voice's fundamental for these tests. */
function strongestLowFrequency(signal: Float32Array): number {
  let best = 0,
    bestPower = -1;
  for (let hz = 60; hz <= 1000; hz += 2) {
    const power = powerAt(signal, hz);
    if (power > bestPower) [best, bestPower] = [hz, power];
  }
  return best;
}

describe('disguiseVoice', () => {
  const input = testVoice(1);

  it.each(DISGUISE_STRENGTHS)('keeps the length and moves the pitch away from the voice (%s)', (strength) => {
    const output = disguiseVoice(input, strength);
    expect(output).toHaveLength(input.length);
    expect(strongestLowFrequency(input)).toBe(220);
    const moved = strongestLowFrequency(output);
    // No harmonic of the recorded 220 Hz is where the disguised voice is strongest.
    expect(Math.min(...[220, 440, 660, 880].map((hz) => Math.abs(hz - moved)))).toBeGreaterThan(10);
    // The recorded fundamental is all but gone: a hundredth of its power, or less, relative to the whole.
    const share = (signal: Float32Array) => powerAt(signal, 220) / signal.reduce((sum, x) => sum + x * x, 0);
    expect(share(output)).toBeLessThan(share(input) / 100);
  });

  it('gives a different voice at each strength', () => {
    const [light, medium, strong] = DISGUISE_STRENGTHS.map((strength) => disguiseVoice(input, strength));
    expect(new Set([light, medium, strong].map(strongestLowFrequency)).size).toBe(3);
    expect(light).not.toEqual(medium);
    expect(medium).not.toEqual(strong);
  });

  it('is deterministic, and the same whether run at once or in steps', async () => {
    const once = disguiseVoice(input, 'medium');
    expect(disguiseVoice(input, 'medium')).toEqual(once);
    const progress: number[] = [];
    const stepped = await disguiseVoiceInSteps(input, 'medium', { onProgress: (p) => progress.push(p), sliceMs: 0 });
    expect(stepped).toEqual(once);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
  });

  it('follows the loudness of the speech: silence stays silent, sound stays within full scale', () => {
    const halfSilent = new Float32Array(input.length);
    halfSilent.set(input.subarray(0, input.length / 2));
    const output = disguiseVoice(halfSilent, 'strong');
    const tail = output.subarray((3 * output.length) / 4);
    const head = output.subarray(0, output.length / 2);
    const rms = (signal: Float32Array) => Math.sqrt(signal.reduce((sum, x) => sum + x * x, 0) / signal.length);
    expect(rms(tail)).toBeLessThan(rms(head) / 100);
    expect(Math.max(...output.map(Math.abs))).toBeLessThanOrEqual(0.9);
    expect(disguiseVoice(new Float32Array(100), 'light').every((x) => x === 0)).toBe(true);
  });

  it('stops when asked', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(disguiseVoiceInSteps(input, 'light', { signal: controller.signal })).rejects.toThrow();
  });
});

describe('encodeWav', () => {
  it('writes a 16-bit mono PCM file of the samples', () => {
    const wav = encodeWav(Float32Array.from([0, 1, -1, 0.5, 2]), 16_000);
    expect(wav).toHaveLength(wavSize(5));
    const view = new DataView(wav.buffer);
    expect(new TextDecoder().decode(wav.subarray(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(wav.subarray(8, 16))).toBe('WAVEfmt ');
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint32(40, true)).toBe(10);
    expect([0, 1, 2, 3, 4].map((n) => view.getInt16(44 + 2 * n, true))).toEqual([0, 32767, -32767, 16384, 32767]);
  });
});
