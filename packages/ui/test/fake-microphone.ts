import { runDisguiseJob, type DisguiseMessage, type DisguiseRequest } from '../src/report/voice/voice-disguise-job';

/**
 * The browser's side of the voice recorder, stood in for: jsdom has no microphone, MediaRecorder, Web Audio or
 * Worker. `installFakeMicrophone()` in a `beforeEach`, `removeFakeMicrophone()` in an `afterEach`; the disguise's
 * worker module replaced by `inProcessWorkerModule`:
 * `jest.mock('…/voice/voice-disguise-worker', () => jest.requireActual('…/test/fake-microphone').inProcessWorkerModule)`.
 */
export class FakeRecorder {
  static last: FakeRecorder;
  state = 'inactive';
  mimeType = 'audio/webm';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor() {
    FakeRecorder.last = this;
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['original recording']) });
    this.onstop?.();
  }
}

/** How long every recording decodes to, in seconds at 16 kHz. */
export const RECORDED_SECONDS = 2;
/** Called when a track of the microphone is stopped. */
export const trackStopped = jest.fn();

export function installFakeMicrophone() {
  trackStopped.mockClear();
  Object.assign(globalThis, {
    MediaRecorder: FakeRecorder,
    AudioContext: class {
      createAnalyser = () => ({ fftSize: 0, getFloatTimeDomainData: (frame: Float32Array) => frame.fill(0.1) });
      createMediaStreamSource = () => ({ connect: () => undefined });
      close = () => Promise.resolve();
    },
    OfflineAudioContext: class {
      decodeAudioData = () =>
        Promise.resolve({
          length: RECORDED_SECONDS * 16_000,
          numberOfChannels: 1,
          getChannelData: () => new Float32Array(RECORDED_SECONDS * 16_000).map((_, n) => Math.sin(n / 5)),
        });
    },
  });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: jest.fn().mockResolvedValue({ getTracks: () => [{ stop: trackStopped }] }) },
  });
  // jsdom's Blob cannot read itself; the decoder stand-in ignores the bytes anyway.
  Blob.prototype.arrayBuffer ??= () => Promise.resolve(new ArrayBuffer(0));
  URL.createObjectURL = jest.fn(() => 'blob:disguised');
  URL.revokeObjectURL = jest.fn();
}

export function removeFakeMicrophone() {
  delete (globalThis as { MediaRecorder?: unknown }).MediaRecorder;
}

/** The disguise's worker run in the test's own thread: the worker's code, its messages delivered as a task each. */
export class InProcessDisguiseWorker {
  onmessage: ((event: { data: DisguiseMessage }) => void) | null = null;
  onerror: (() => void) | null = null;
  private ended = false;
  postMessage(request: DisguiseRequest) {
    void runDisguiseJob(request, (data) => setTimeout(() => !this.ended && this.onmessage?.({ data })));
  }
  terminate() {
    this.ended = true;
  }
}
export const inProcessWorkerModule = { startVoiceDisguiseWorker: () => new InProcessDisguiseWorker() };
