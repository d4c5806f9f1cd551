/**
 * The voice disguise: a channel vocoder run on 16 kHz mono samples, pure and deterministic (no Web Audio, so it
 * is tested in Node and gives the same bytes in every browser). The speech is split into bands whose loudness is
 * followed; those envelopes then shape a new, synthetic voice (a buzz at a fixed pitch mixed with noise) in bands
 * moved up or down (a formant shift). The recorded waveform, with its pitch, melody and voice quality, is not in
 * the result: undoing a pitch or formant shift cannot bring it back. See docs/security.md for what stays.
 */

export type DisguiseStrength = 'light' | 'medium' | 'strong';

export const DISGUISE_STRENGTHS: readonly DisguiseStrength[] = ['light', 'medium', 'strong'];

/** The rate the recorder decodes to and the disguise works at: speech fits under 8 kHz, the file stays small. */
export const VOICE_SAMPLE_RATE = 16_000;

interface Setting {
  /** Fewer bands keep less of the speaker's spectrum. */
  bands: number;
  /** Each band's centre is moved by this factor in the new voice. */
  formantShift: number;
  /** The new voice's pitch: a whole number of samples per period, so its buzz repeats exactly. */
  carrierHz: number;
  /** 0 a pure buzz, 1 a whisper. */
  noise: number;
  /** How fast the band loudness may change: slower smooths away more of the speaker's detail. */
  envelopeHz: number;
}

const SETTINGS: Record<DisguiseStrength, Setting> = {
  light: { bands: 20, formantShift: 1.15, carrierHz: 160, noise: 0.2, envelopeHz: 40 },
  medium: { bands: 16, formantShift: 1.25, carrierHz: 128, noise: 0.45, envelopeHz: 30 },
  strong: { bands: 12, formantShift: 0.8, carrierHz: 100, noise: 0.8, envelopeHz: 22 },
};

const LOWEST_HZ = 120;
const HIGHEST_HZ = 6_400;
/** Synthesis bands moved above this are left out (they would fold over 8 kHz). */
const TOP_HZ = 7_400;
/** The carrier of each band is made once and repeated: one second, a whole number of periods for every pitch. */
const CARRIER_LENGTH = VOICE_SAMPLE_RATE;
const PEAK = 0.89;

/** Band-pass biquad coefficients (RBJ cookbook, 0 dB peak), normalised by a0. */
function bandPass(centreHz: number, q: number) {
  const w0 = (2 * Math.PI * centreHz) / VOICE_SAMPLE_RATE;
  const alpha = Math.sin(w0) / (2 * q);
  const a0 = 1 + alpha;
  return { b0: alpha / a0, b2: -alpha / a0, a1: (-2 * Math.cos(w0)) / a0, a2: (1 - alpha) / a0 };
}

type Coefficients = ReturnType<typeof bandPass>;

/** Filters `signal` in place, twice (fourth order), so neighbouring bands overlap little. */
function filterTwiceInPlace(signal: Float32Array, { b0, b2, a1, a2 }: Coefficients) {
  for (let pass = 0; pass < 2; pass++) {
    let x1 = 0,
      x2 = 0,
      y1 = 0,
      y2 = 0;
    for (let n = 0; n < signal.length; n++) {
      const x = signal[n];
      const y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      signal[n] = y;
    }
  }
}

/** A small seeded generator (mulberry32): the same noise every time, so the disguise is reproducible. */
function noiseSource(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

/** The new voice in one band: buzz and noise band-passed at the moved centre, one second of it at unit loudness. */
function carrierBand(setting: Setting, coefficients: Coefficients, seed: number): Float32Array {
  const period = VOICE_SAMPLE_RATE / setting.carrierHz;
  const noise = noiseSource(seed);
  // Two seconds filtered, the second kept: the filter has settled and the buzz repeats from sample 0.
  const signal = new Float32Array(2 * CARRIER_LENGTH);
  for (let n = 0; n < signal.length; n++) {
    const saw = (n % period) / period - 0.5;
    signal[n] = (1 - setting.noise) * saw + setting.noise * 1.7 * noise();
  }
  filterTwiceInPlace(signal, coefficients);
  const kept = signal.slice(CARRIER_LENGTH);
  let energy = 0;
  for (const value of kept) energy += value * value;
  const rms = Math.sqrt(energy / kept.length) || 1;
  for (let n = 0; n < kept.length; n++) kept[n] /= rms;
  return kept;
}

interface Band {
  analysis: Coefficients;
  carrier: Float32Array;
  /** The analysis filter's state and the envelope follower's, carried from one step to the next. */
  state: Float64Array;
}

function bandsOf(setting: Setting): Band[] {
  const ratio = Math.pow(HIGHEST_HZ / LOWEST_HZ, 1 / setting.bands);
  // Each band spans one ratio step around its centre.
  const q = 1 / (Math.sqrt(ratio) - 1 / Math.sqrt(ratio));
  const bands: Band[] = [];
  for (let k = 0; k < setting.bands; k++) {
    const centre = LOWEST_HZ * Math.pow(ratio, k + 0.5);
    const moved = centre * setting.formantShift;
    if (moved > TOP_HZ) continue;
    bands.push({
      analysis: bandPass(centre, q),
      carrier: carrierBand(setting, bandPass(moved, q), 0x5eed + k),
      state: new Float64Array(9),
    });
  }
  return bands;
}

/**
 * A disguise under way, run in steps so a long recording can show progress and leave the page responsive.
 * `input` is 16 kHz mono; the output has the same length.
 */
export class VoiceDisguise {
  readonly output: Float32Array;
  private readonly bands: Band[];
  private readonly follow: number;
  /** Samples disguised, then samples scaled to the common loudness (a second pass, in steps too). */
  private position = 0;
  private scaled = 0;
  private peak = 0;

  constructor(
    private readonly input: Float32Array,
    strength: DisguiseStrength,
  ) {
    const setting = SETTINGS[strength];
    this.bands = bandsOf(setting);
    this.follow = 1 - Math.exp((-2 * Math.PI * setting.envelopeHz) / VOICE_SAMPLE_RATE);
    this.output = new Float32Array(input.length);
  }

  get progress(): number {
    // The scaling is a small part of the work: it counts for a tenth.
    return this.input.length === 0 ? 1 : (0.9 * this.position + 0.1 * this.scaled) / this.input.length;
  }

  get done(): boolean {
    return this.scaled >= this.input.length;
  }

  /**
   * Disguises up to `samples` more samples; once all are, scales up to ten times as many per step to a common
   * loudness (the peak is known only at the end).
   */
  step(samples: number): void {
    if (this.position < this.input.length) this.synthesise(samples);
    else this.scale(10 * samples);
  }

  private synthesise(samples: number) {
    const start = this.position;
    const end = Math.min(this.input.length, start + samples);
    const { input, output, follow } = this;
    for (const { analysis, carrier, state } of this.bands) {
      const { b0, b2, a1, a2 } = analysis;
      // Two biquads in series (x1, x2, y1, y2 each), then the envelope.
      let p1 = state[0],
        p2 = state[1],
        q1 = state[2],
        q2 = state[3],
        r1 = state[4],
        r2 = state[5],
        s1 = state[6],
        s2 = state[7],
        envelope = state[8];
      for (let n = start; n < end; n++) {
        const x = input[n];
        const y = b0 * x + b2 * p2 - a1 * q1 - a2 * q2;
        p2 = p1;
        p1 = x;
        q2 = q1;
        q1 = y;
        const z = b0 * y + b2 * r2 - a1 * s1 - a2 * s2;
        r2 = r1;
        r1 = y;
        s2 = s1;
        s1 = z;
        envelope += follow * (Math.abs(z) - envelope);
        output[n] += envelope * carrier[n % CARRIER_LENGTH];
      }
      state.set([p1, p2, q1, q2, r1, r2, s1, s2, envelope]);
    }
    let peak = this.peak;
    for (let n = start; n < end; n++) peak = Math.max(peak, Math.abs(output[n]));
    this.peak = peak;
    this.position = end;
  }

  private scale(samples: number) {
    const start = this.scaled;
    const end = Math.min(this.output.length, start + samples);
    // Silence stays silence.
    const gain = this.peak === 0 ? 1 : PEAK / this.peak;
    for (let n = start; n < end; n++) this.output[n] *= gain;
    this.scaled = end;
  }
}

/** Disguises a whole recording at once (16 kHz mono in, the same length out). */
export function disguiseVoice(input: Float32Array, strength: DisguiseStrength): Float32Array {
  const disguise = new VoiceDisguise(input, strength);
  while (!disguise.done) disguise.step(input.length);
  return disguise.output;
}

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Disguises a recording in slices of about `sliceMs` of work, letting the page draw and answer in between, and
 * telling the progress (0 to 1) after each. `signal` stops it (the discloser records again).
 */
export async function disguiseVoiceInSteps(
  input: Float32Array,
  strength: DisguiseStrength,
  {
    onProgress,
    signal,
    sliceMs = 30,
  }: { onProgress?: (fraction: number) => void; signal?: AbortSignal; sliceMs?: number } = {},
): Promise<Float32Array> {
  const disguise = new VoiceDisguise(input, strength);
  // Quarter-second steps, as many as fit in a slice.
  const stepSamples = VOICE_SAMPLE_RATE / 4;
  while (!disguise.done) {
    signal?.throwIfAborted();
    const sliceStart = performance.now();
    do disguise.step(stepSamples);
    while (!disguise.done && performance.now() - sliceStart < sliceMs);
    onProgress?.(disguise.progress);
    // Also after the last slice: what comes next (the WAV encoding) starts a task of its own.
    await yieldToPage();
  }
  return disguise.output;
}
