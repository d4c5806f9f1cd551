import { webcrypto } from 'node:crypto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { IncidentFile, IncidentMessage } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  createPersonKeys,
  encryptFile,
  fileContentDigest,
  importPersonKeys,
  signStaffContent,
  staffFileCiphertexts,
  type IncidentHandle,
  type PersonKeys,
  type TeamKey,
} from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { INCIDENT, incidentMessage, openReviewPage } from '../../test/review-router';
import { forgetOutcome } from '../session/status-outcome.store';

/*
 * The reporter's page offers a file of the case team only if a key of the team signed its name, key and content,
 * and downloads only those bytes: docs/security.md, "Signed staff messages".
 */

const REPLY = '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001';
const UNSIGNED_WARNING = 'This file cannot be verified.';

let handle: IncidentHandle;
let english: i18n;
let admin: { person: PersonKeys; key: TeamKey };
let stranger: { person: PersonKeys; key: TeamKey };
let reply: IncidentMessage;
const realFetch = global.fetch;
const createObjectURL = jest.fn(() => 'blob:file');

async function member(keyId: string): Promise<{ person: PersonKeys; key: TeamKey }> {
  const { publicKeys, secret } = await createPersonKeys();
  const person = await importPersonKeys(secret, publicKeys);
  return { person, key: { key_id: keyId, signing_public_key: publicKeys.signing_public_key, role: 'ADMIN' } };
}

beforeAll(async () => {
  // jsdom has no WebCrypto: Node's is the browser's API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
  handle = (await createIncidentCredentials((await createCompanyCredentials()).credential.public_key)).incident;
  english = await initTestI18n<i18n>('en');
  admin = await member('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0f001');
  stranger = await member('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0f009');
  const parts = await signStaffContent(admin.person, {
    incidentPublicKey: handle.publicKey,
    kind: 'message',
    ciphertexts: [(reply = await incidentMessage(handle, REPLY, 'Please fill in the attached')).content],
  });
  reply = { ...reply, signature: { ...parts, signer_key_id: admin.key.key_id } };
});
afterEach(() => {
  forgetOutcome();
  global.fetch = realFetch;
  createObjectURL.mockClear();
});

interface StaffFile {
  file: IncidentFile;
  ciphertext: Uint8Array;
}

/** A file of the reply as the staff browser sends it: encrypted, and signed by `by` (none: unsigned). */
async function staffFile(uuid: string, name: string, by?: { person: PersonKeys; key: TeamKey }): Promise<StaffFile> {
  const encrypted = await encryptFile(handle.publicKey, new TextEncoder().encode(`${name} content`), {
    fileName: name,
  });
  const content_digest = await fileContentDigest(encrypted.ciphertext);
  const parts =
    by &&
    (await signStaffContent(by.person, {
      incidentPublicKey: handle.publicKey,
      kind: 'file',
      ciphertexts: staffFileCiphertexts({ ...encrypted, content_digest }),
    }));
  return {
    ciphertext: encrypted.ciphertext,
    file: {
      uuid,
      incident_uuid: INCIDENT,
      incident_message_uuid: REPLY,
      file_size: 20,
      mime_type: 'text/plain',
      created: '2026-03-04T11:00:00.000Z',
      file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      content_digest: by ? content_digest : null,
      signature: parts ? { ...parts, signer_key_id: by!.key.key_id } : null,
    },
  };
}

/**
 * Opens the page on the reply and its files; a download answers what `served` says of it (by default the file as
 * listed: its own bytes, key and name).
 */
function openWith(files: StaffFile[], { pinned = true, served = new Map<string, StaffFile>() } = {}) {
  global.fetch = jest.fn(async (url: string) => {
    const listed = files.find((each) => url.endsWith(each.file.uuid))!;
    const { file, ciphertext } = served.get(listed.file.uuid) ?? listed;
    // Node's Response: jsdom's Blob is not a body it reads.
    return new Response(ciphertext as BodyInit, {
      headers: { 'x-whistle-encrypted-key': file.encrypted_key, 'x-whistle-encrypted-file-name': file.file_name },
    });
  }) as unknown as typeof fetch;
  openReviewPage({
    handle,
    language: english,
    status: 'INVESTIGATION',
    messages: [reply],
    pinned: pinned ? [admin.key] : undefined,
    answer: async (_method, path) => {
      if (path === `/api/incident/${INCIDENT}/file`) return files.map(({ file }) => file);
      return files.find(({ file }) => path === `/api/incident/file/${file.uuid}`)?.file ?? [];
    },
  });
}

const thread = () => screen.findByRole('region', { name: 'Messages' });

describe('files the case team sends the reporter (issue #25, item 4)', () => {
  it('when a team key signed the file, then its name and download show, and the download is saved', async () => {
    openWith([await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d001', 'form.pdf', admin)]);
    const messages = await thread();
    expect(await within(messages).findByText('form.pdf', { selector: '.wh-files__name' })).toBeInTheDocument();
    fireEvent.click(within(messages).getByRole('button', { name: 'Download form.pdf' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(UNSIGNED_WARNING)).not.toBeInTheDocument();
  });

  it('when a file is unsigned, signed by a key outside the team, or carries another file’s signature, then the warning shows, no name and no download', async () => {
    const signed = await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d001', 'agenda.pdf', admin);
    const moved = await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d004', 'identity-form.pdf');
    moved.file = { ...moved.file, content_digest: signed.file.content_digest, signature: signed.file.signature };
    openWith([
      await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d002', 'your-name.pdf'),
      await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d003', 'your-address.pdf', stranger),
      moved,
    ]);
    const messages = await thread();
    await waitFor(() => expect(within(messages).getAllByText(UNSIGNED_WARNING)).toHaveLength(3));
    expect(within(messages).getAllByText(/not offered for download/)).toHaveLength(3);
    for (const hidden of ['your-name.pdf', 'your-address.pdf', 'identity-form.pdf'])
      expect(screen.queryByText(hidden)).not.toBeInTheDocument();
    expect(within(messages).queryByRole('button', { name: /^Download/ })).not.toBeInTheDocument();
  });

  it.each([
    ['the bytes', (genuine: StaffFile, other: StaffFile) => ({ ...genuine, ciphertext: other.ciphertext })],
    ['the key and name', (genuine: StaffFile, other: StaffFile) => ({ ...other, ciphertext: genuine.ciphertext })],
  ])(
    'when %s served are not those signed, then the download shows the warning and saves nothing',
    async (_what, serve) => {
      const genuine = await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d001', 'form.pdf', admin);
      const other = await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d009', 'form.pdf');
      openWith([genuine], { served: new Map([[genuine.file.uuid, serve(genuine, other)]]) });
      const messages = await thread();
      fireEvent.click(await within(messages).findByRole('button', { name: 'Download form.pdf' }));
      expect(await within(messages).findByRole('alert')).toHaveTextContent(UNSIGNED_WARNING);
      expect(createObjectURL).not.toHaveBeenCalled();
    },
  );

  it('when the report was made before the pinning, then the team’s files show and download as before', async () => {
    openWith([await staffFile('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d001', 'older.pdf')], { pinned: false });
    const messages = await thread();
    fireEvent.click(await within(messages).findByRole('button', { name: 'Download older.pdf' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(UNSIGNED_WARNING)).not.toBeInTheDocument();
  });
});
