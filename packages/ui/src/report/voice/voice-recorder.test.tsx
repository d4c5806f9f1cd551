import { webcrypto } from 'node:crypto';
import type { i18n } from 'i18next';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  decryptContent,
  type IncidentHandle,
} from '@whistle/crypto';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { initTestI18n } from '../../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { uploadAttachment, type Attachment } from '../attachment';
import { ReplyForm, useReply } from '../reply-form.component';
import {
  FakeRecorder,
  RECORDED_SECONDS,
  inProcessWorkerModule,
  installFakeMicrophone,
  removeFakeMicrophone,
  trackStopped,
} from '../../../test/fake-microphone';
import { useVoiceRecorder, voiceFileName } from './use-voice-recorder';
import { VoiceRecorder } from './voice-recorder.component';

// jsdom has no Worker: the disguise's worker runs in the test's thread.
jest.mock('./voice-disguise-worker', () => jest.requireActual('../../../test/fake-microphone').inProcessWorkerModule);

/** The recorder on its own, as a form holds it. */
function Recorder({ onAdd }: { onAdd: (file: Attachment) => void }) {
  return <VoiceRecorder recorder={useVoiceRecorder()} onAdd={onAdd} />;
}

// The upload itself (XMLHttpRequest to the file service) is the API client's, tested there.
jest.mock('../attachment', () => ({ ...jest.requireActual('../attachment'), uploadAttachment: jest.fn() }));

let english: i18n;
let handle: IncidentHandle;
beforeAll(async () => {
  // jsdom has no WebCrypto: Node's is the browser's API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  english = await initTestI18n<i18n>('en');
  const company = await createCompanyCredentials();
  handle = (await createIncidentCredentials(company.credential.public_key)).incident;
});
/** What the reply forms posted (the encrypted texts). */
const sent = { posted: [] as string[] };
beforeEach(() => {
  sent.posted = [];
  jest
    .mocked(uploadAttachment)
    .mockReset()
    .mockResolvedValue(undefined as never);
});

beforeEach(installFakeMicrophone);
afterEach(() => {
  jest.useRealTimers();
  removeFakeMicrophone();
});

const record = () => fireEvent.click(screen.getByRole('button', { name: 'Record a voice message' }));

describe('the voice recorder (issue 26)', () => {
  it('names a voice message by when it was made, in UTC', () => {
    expect(voiceFileName(new Date('2026-12-04T18:23:05.123+01:00'))).toBe('voice-message-2026-12-04-17-23-05.wav');
  });

  it('says what happens before the browser asks for the microphone, and asks only on the button', () => {
    renderWithI18n(<Recorder onAdd={() => undefined} />, english);
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
    renderWithI18n(<Recorder onAdd={() => undefined} />, english);
    record();
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(screen.getByRole('button', { name: 'Record a voice message' })).toBeTruthy();
  });

  it('when the browser cannot record, then it says so without asking', async () => {
    delete (globalThis as { MediaRecorder?: unknown }).MediaRecorder;
    renderWithI18n(<Recorder onAdd={() => undefined} />, english);
    record();
    expect((await screen.findByRole('alert')).textContent).toContain('This browser cannot record sound.');
    expect(navigator.mediaDevices.getUserMedia).not.toHaveBeenCalled();
  });

  it('records, lets the microphone go, offers the disguised voice and adds only its WAV to the files', async () => {
    const added: Attachment[] = [];
    renderWithI18n(<Recorder onAdd={(file) => added.push(file)} />, english);
    record();
    await screen.findByRole('timer', { name: 'Recording time' });
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    expect(trackStopped).toHaveBeenCalled();
    const player = await screen.findByLabelText('Disguised voice message');
    expect(player.getAttribute('src')).toBe('blob:disguised');
    fireEvent.click(screen.getByRole('radio', { name: 'Strong: a whisper, harder to recognise' }));
    await screen.findByLabelText('Disguised voice message');
    fireEvent.click(screen.getByRole('button', { name: 'Add to the files' }));
    expect(added).toHaveLength(1);
    const [file] = added;
    expect(file).toMatchObject({ type: 'audio/wav', size: 44 + RECORDED_SECONDS * 16_000 * 2 });
    expect(file!.name).toMatch(/^voice-message-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.wav$/);
    expect(new TextDecoder().decode(file!.bytes.subarray(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(file!.bytes)).not.toContain('original recording');
    expect(screen.getByRole('status').textContent).toBe('The disguised voice message was added to the files.');
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:disguised');
  });

  it('when the worker that disguises cannot run, then it says so, offers nothing to add, and lets the discloser record again', async () => {
    const failing = { onerror: null as (() => void) | null, postMessage() {}, terminate: jest.fn() };
    failing.postMessage = () => setTimeout(() => failing.onerror?.());
    jest.spyOn(inProcessWorkerModule, 'startVoiceDisguiseWorker').mockReturnValueOnce(failing as never);
    renderWithI18n(<Recorder onAdd={() => undefined} />, english);
    record();
    fireEvent.click(await screen.findByRole('button', { name: 'Stop recording' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The voice could not be disguised in this browser, so nothing was kept. Please record again, or write instead.',
    );
    expect(failing.terminate).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Add to the files' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Record a voice message' })).toBeTruthy();
  });

  it('when the page goes while the browser asks for the microphone, then a microphone granted afterwards is let go at once', async () => {
    let grant: (stream: unknown) => void = () => undefined;
    (navigator.mediaDevices.getUserMedia as jest.Mock).mockReturnValue(new Promise((resolve) => (grant = resolve)));
    const recorders = FakeRecorder.last;
    const { unmount } = renderWithI18n(<Recorder onAdd={() => undefined} />, english);
    record();
    await screen.findByText("Waiting for the microphone: answer the browser's question.");
    unmount();
    await act(async () => grant({ getTracks: () => [{ stop: trackStopped }] }));
    expect(trackStopped).toHaveBeenCalled();
    expect(FakeRecorder.last).toBe(recorders);
  });

  it('stops by itself at 10 minutes and says why', async () => {
    jest.useFakeTimers();
    renderWithI18n(<Recorder onAdd={() => undefined} />, english);
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

/** A reply form of a thread, with or without the recorder; what it posts and uploads is kept in `sent`. */
function Reply({ voice }: { voice?: boolean }) {
  const reply = useReply({
    handle,
    from: 'discloser',
    incidentUuid: 'incident',
    filesApi: {} as never,
    post: async (content) => {
      sent.posted.push(content);
      return { uuid: 'message' };
    },
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
  const write = (text: string) =>
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: text } });
  const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send' }));
  const PREVIEW_HELD = 'Nothing was sent: this voice message is not among the files yet.';

  it("on the discloser's side, a disguised voice message joins the files of the reply", async () => {
    renderWithI18n(<Reply voice />, english);
    record();
    await screen.findByRole('timer');
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to the files' }));
    expect(screen.getByText(/^voice-message-[\d-]+\.wav$/, { selector: '.wh-files__name' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Remove voice-message-[\d-]+\.wav$/ })).toBeTruthy();
  });

  it('when Send is pressed while a disguised voice is not among the files, then nothing is sent and the recorder asks; once added, it goes with the message', async () => {
    renderWithI18n(<Reply voice />, english);
    write('Said aloud');
    record();
    await screen.findByRole('timer');
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    const add = await screen.findByRole('button', { name: 'Add to the files' });
    send();
    expect(screen.getByText(/^Nothing was sent: this voice message/).textContent).toContain(PREVIEW_HELD);
    expect(add).toHaveFocus();
    expect(add).toHaveAccessibleDescription(expect.stringContaining(PREVIEW_HELD));
    await act(async () => undefined);
    expect(sent.posted).toEqual([]);

    fireEvent.click(add);
    expect(screen.queryByText(/^Nothing was sent/)).toBeNull();
    send();
    await waitFor(() => expect(sent.posted).toHaveLength(1));
    await waitFor(() => expect(uploadAttachment).toHaveBeenCalledTimes(1));
    expect(jest.mocked(uploadAttachment).mock.calls[0]![4]).toMatchObject({
      type: 'audio/wav',
      name: expect.stringMatching(/^voice-message-/),
    });
    expect(await decryptContent(handle, sent.posted[0]!, { kind: 'message', from: 'discloser' })).toBe('Said aloud');
  });

  it('when Send is pressed while recording, then the recording goes on, nothing is sent, and Stop takes the focus; discarded, the message goes alone', async () => {
    renderWithI18n(<Reply voice />, english);
    write('Never mind the recording');
    record();
    await screen.findByRole('timer');
    send();
    const stop = screen.getByRole('button', { name: 'Stop recording' });
    expect(stop).toHaveFocus();
    expect(stop).toHaveAccessibleDescription(
      'Nothing was sent: you are still recording. Stop the recording, then add it to the files or discard it.',
    );
    expect(FakeRecorder.last.state).toBe('recording');
    fireEvent.click(stop);
    // Still held once stopped: the preview says what is left to decide.
    await screen.findByRole('button', { name: 'Add to the files' });
    expect(screen.getByText(/^Nothing was sent/).textContent).toContain(PREVIEW_HELD);
    await act(async () => undefined);
    expect(sent.posted).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByText(/^Nothing was sent/)).toBeNull();
    send();
    await waitFor(() => expect(sent.posted).toHaveLength(1));
    expect(uploadAttachment).not.toHaveBeenCalled();
  });

  it('without `voice`, there is no recorder', () => {
    renderWithI18n(<Reply />, english);
    expect(screen.queryByRole('group', { name: 'Voice message' })).toBeNull();
  });
});
