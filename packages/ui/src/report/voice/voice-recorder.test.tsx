import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { initTestI18n } from '../../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import type { Attachment } from '../attachment';
import { ReplyForm, useReply } from '../reply-form.component';
import { voiceFileName } from './use-voice-recorder';
import { VoiceRecorder } from './voice-recorder.component';

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});

/** The browser's side, stood in for: jsdom has no microphone, MediaRecorder or Web Audio. */
class FakeRecorder {
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
const stopped = jest.fn();
const stream = { getTracks: () => [{ stop: stopped }] };
const recordedSeconds = 2;

beforeEach(() => {
  stopped.mockClear();
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
          length: recordedSeconds * 16_000,
          numberOfChannels: 1,
          getChannelData: () => new Float32Array(recordedSeconds * 16_000).map((_, n) => Math.sin(n / 5)),
        });
    },
  });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: jest.fn().mockResolvedValue(stream) },
  });
  // jsdom's Blob cannot read itself; the decoder stand-in ignores the bytes anyway.
  Blob.prototype.arrayBuffer ??= () => Promise.resolve(new ArrayBuffer(0));
  URL.createObjectURL = jest.fn(() => 'blob:disguised');
  URL.revokeObjectURL = jest.fn();
});
afterEach(() => {
  jest.useRealTimers();
  delete (globalThis as { MediaRecorder?: unknown }).MediaRecorder;
});

const record = () => fireEvent.click(screen.getByRole('button', { name: 'Record a voice message' }));

describe('the voice recorder (issue 26)', () => {
  it('names a voice message by when it was made, in UTC', () => {
    expect(voiceFileName(new Date('2026-12-04T18:23:05.123+01:00'))).toBe('voice-message-2026-12-04-17-23-05.wav');
  });

  it('says what happens before the browser asks for the microphone, and asks only on the button', () => {
    renderWithI18n(<VoiceRecorder onAdd={() => undefined} />, english);
    expect(screen.getByRole('group', { name: 'Voice message' }).textContent).toContain(
      'The browser will then ask you to allow the microphone.',
    );
    expect(navigator.mediaDevices.getUserMedia).not.toHaveBeenCalled();
  });

  it.each([
    ['NotAllowedError', 'The microphone was refused, so nothing was recorded.'],
    ['NotFoundError', 'No microphone was found.'],
  ])('when getUserMedia fails with %s, then it says so and the button stays', async (name, message) => {
    (navigator.mediaDevices.getUserMedia as jest.Mock).mockRejectedValue(new DOMException('no', name));
    renderWithI18n(<VoiceRecorder onAdd={() => undefined} />, english);
    record();
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(screen.getByRole('button', { name: 'Record a voice message' })).toBeTruthy();
  });

  it('when the browser cannot record, then it says so without asking', async () => {
    delete (globalThis as { MediaRecorder?: unknown }).MediaRecorder;
    renderWithI18n(<VoiceRecorder onAdd={() => undefined} />, english);
    record();
    expect((await screen.findByRole('alert')).textContent).toContain('This browser cannot record sound.');
    expect(navigator.mediaDevices.getUserMedia).not.toHaveBeenCalled();
  });

  it('records, lets the microphone go, offers the disguised voice and adds only its WAV to the files', async () => {
    const added: Attachment[] = [];
    renderWithI18n(<VoiceRecorder onAdd={(file) => added.push(file)} />, english);
    record();
    await screen.findByRole('timer', { name: 'Recording time' });
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    expect(stopped).toHaveBeenCalled();
    const player = await screen.findByLabelText('Disguised voice message');
    expect(player.getAttribute('src')).toBe('blob:disguised');
    fireEvent.click(screen.getByRole('radio', { name: 'Strong: a whisper, harder to recognise' }));
    await screen.findByLabelText('Disguised voice message');
    fireEvent.click(screen.getByRole('button', { name: 'Add to the files' }));
    expect(added).toHaveLength(1);
    const [file] = added;
    expect(file).toMatchObject({ type: 'audio/wav', size: 44 + recordedSeconds * 16_000 * 2 });
    expect(file!.name).toMatch(/^voice-message-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.wav$/);
    expect(new TextDecoder().decode(file!.bytes.subarray(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(file!.bytes)).not.toContain('original recording');
    expect(screen.getByRole('status').textContent).toBe('The disguised voice message was added to the files.');
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:disguised');
  });

  it('stops by itself at 10 minutes and says why', async () => {
    jest.useFakeTimers();
    renderWithI18n(<VoiceRecorder onAdd={() => undefined} />, english);
    record();
    await act(async () => undefined);
    expect(FakeRecorder.last.state).toBe('recording');
    act(() => jest.advanceTimersByTime(599_000));
    expect(FakeRecorder.last.state).toBe('recording');
    expect(screen.getByRole('timer').textContent).toMatch(/^9:5\d \/ 10:00$/);
    act(() => jest.advanceTimersByTime(1_500));
    expect(FakeRecorder.last.state).toBe('inactive');
    jest.useRealTimers();
    await waitFor(() =>
      expect(screen.getByText('The recording stopped at 10 minutes, the longest a voice message can be.')).toBeTruthy(),
    );
  });
});

/** A reply form of a thread, with or without the recorder; nothing is sent here. */
function Reply({ voice }: { voice?: boolean }) {
  const reply = useReply({
    handle: { publicKey: 'no key: nothing is sent here' },
    from: 'discloser',
    incidentUuid: 'incident',
    filesApi: {} as never,
    post: () => Promise.reject(new Error('not sent in this test')),
    onSent: () => undefined,
    onFailed: () => undefined,
  });
  return (
    <ReplyForm
      reply={reply}
      name="text"
      voice={voice}
      words={{ label: 'Message', attach: 'Attach files', send: 'Send', sending: 'Loading' }}
    />
  );
}

describe('the reply form of a thread', () => {
  it("on the discloser's side, a disguised voice message joins the files of the reply", async () => {
    renderWithI18n(<Reply voice />, english);
    record();
    await screen.findByRole('timer');
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to the files' }));
    expect(screen.getByText(/^voice-message-[\d-]+\.wav$/, { selector: '.wh-files__name' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Remove voice-message-[\d-]+\.wav$/ })).toBeTruthy();
  });

  it('without `voice`, there is no recorder', () => {
    renderWithI18n(<Reply />, english);
    expect(screen.queryByRole('group', { name: 'Voice message' })).toBeNull();
  });
});
