import { webcrypto } from 'node:crypto';
import type { i18n } from 'i18next';
import { screen } from '@testing-library/react';
import { ApiError, type ApiClient } from '@whistle/api-client';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  DecryptionError,
  decryptContent,
  type IncidentHandle,
} from '@whistle/crypto';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { uploadAttachment } from './attachment';
import { MessageThread, type ThreadWords } from './message-thread.component';
import { sendEncryptedMessage, type MessageChannel } from './send-message';

// The upload itself (XMLHttpRequest to the file service) is the API client's, tested there.
jest.mock('./attachment', () => ({ ...jest.requireActual('./attachment'), uploadAttachment: jest.fn() }));

const INCIDENT = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const words: ThreadWords = {
  empty: 'No messages yet.',
  sentBy: (name) => `Message sent by ${name}`,
  receivedFrom: (name) => `Message received from ${name}`,
  decrypting: 'Decrypting…',
  unverifiable: 'This text cannot be verified',
};

let english: i18n;
let handle: IncidentHandle;
beforeAll(async () => {
  // jsdom has no WebCrypto: Node's is the browser's API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  english = await initTestI18n<i18n>('en');
  const company = await createCompanyCredentials();
  handle = (await createIncidentCredentials(company.credential.public_key)).incident;
});

describe('the message thread', () => {
  const message = (uuid: string, source: 'DISCLOSER' | 'STAFF', text: string | null) => ({
    uuid,
    created: '2026-03-04T11:00:00.000Z',
    sender: { name: source === 'STAFF' ? 'Grace Hopper' : 'Discloser', source },
    text,
  });

  it.each([
    ['DISCLOSER', 'Message sent by Discloser', 'Message received from Grace Hopper'],
    ['STAFF', 'Message received from Discloser', 'Message sent by Grace Hopper'],
  ] as const)('when %s views it, then its own messages are "sent by" and the others "received from"', (own, a, b) => {
    renderWithI18n(
      <MessageThread
        messages={[message('m1', 'DISCLOSER', 'Hello'), message('m2', 'STAFF', 'Thanks')]}
        ownSource={own}
        words={words}
        filesOf={() => null}
      />,
      english,
    );
    expect(screen.getAllByRole('listitem').map((item) => item.querySelector('strong')?.textContent)).toEqual([a, b]);
  });

  it('when a text is being decrypted or cannot be verified, then it says so; an empty thread says there is nothing yet', () => {
    const { rerender } = renderWithI18n(
      <MessageThread
        messages={[message('m1', 'STAFF', null), message('m2', 'STAFF', '')]}
        ownSource="DISCLOSER"
        words={words}
        filesOf={() => null}
      />,
      english,
    );
    expect(screen.getByText('Decrypting…')).toBeInTheDocument();
    expect(screen.getByText('This text cannot be verified')).toBeInTheDocument();
    rerender(<MessageThread messages={[]} ownSource="DISCLOSER" words={words} filesOf={() => null} />);
    expect(screen.getByText('No messages yet.')).toBeInTheDocument();
  });
});

describe('sending an encrypted message', () => {
  const file = { id: 'f1', name: 'receipt.txt', size: 5, type: 'text/plain', bytes: new TextEncoder().encode('hello') };

  function channel(uploads: () => Promise<unknown>, endsSending?: MessageChannel['endsSending']) {
    const posted: string[] = [];
    jest
      .mocked(uploadAttachment)
      .mockReset()
      .mockImplementation(uploads as typeof uploadAttachment);
    const sent: MessageChannel = {
      handle,
      from: 'discloser',
      incidentUuid: INCIDENT,
      filesApi: {} as ApiClient,
      post: async (content) => {
        posted.push(content);
        return { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001' };
      },
      endsSending,
    };
    return { sent, posted };
  }

  it('when a message is sent, then only its ciphertext leaves, which opens as a message of its sender only', async () => {
    const { sent, posted } = channel(async () => ({}));
    expect(await sendEncryptedMessage(sent, { text: 'Any news?', files: [], onProgress: jest.fn() })).toEqual({});
    expect(posted[0]).toMatch(/^v2\./);
    expect(await decryptContent(handle, posted[0]!, { kind: 'message', from: 'discloser' })).toBe('Any news?');
    await expect(decryptContent(handle, posted[0]!, { kind: 'message', from: 'staff' })).rejects.toThrow(
      DecryptionError,
    );
  });

  it('when the file service refuses a file after the message went out, then the message counts as sent and says why', async () => {
    const { sent, posted } = channel(async () => {
      throw new ApiError('/api/incident/file/', 409, 'Conflict', { message: 'Conflict' });
    });
    const outcome = await sendEncryptedMessage(sent, { text: 'See attached', files: [file], onProgress: jest.fn() });
    expect(outcome).toEqual({ refusedFile: 'files.limitReached' });
    expect(posted).toHaveLength(1);
    expect(uploadAttachment).toHaveBeenCalledWith(
      sent.filesApi,
      handle,
      INCIDENT,
      '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001',
      file,
      expect.any(Function),
      expect.any(Function),
      undefined,
    );
  });

  it('when staff send files, then each is signed by the signer the posted message gives', async () => {
    const { sent } = channel(async () => ({}));
    const signer = jest.fn(async () => undefined);
    const fileSigner = jest.fn(() => signer);
    await sendEncryptedMessage(
      { ...sent, from: 'staff', fileSigner },
      { text: 'Form', files: [file], onProgress: jest.fn() },
    );
    expect(fileSigner).toHaveBeenCalledWith({ uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001' });
    expect(jest.mocked(uploadAttachment).mock.calls[0]![7]).toBe(signer);
  });

  it('when an upload failure ends the sending (the session ended), then it is thrown, not a refused file', async () => {
    const ended = new ApiError('/api/incident/file/', 401, 'Unauthorized', {});
    const { sent } = channel(
      async () => {
        throw ended;
      },
      (error) => error === ended,
    );
    await expect(
      sendEncryptedMessage(sent, { text: 'See attached', files: [file], onProgress: jest.fn() }),
    ).rejects.toBe(ended);
  });
});
