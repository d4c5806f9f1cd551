import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { uploadIncidentFile, type FileUpload } from '@whistle/api-client';
import {
  createPersonKeys,
  fileContentDigest,
  importPersonKeys,
  staffFileCiphertexts,
  verifyStaffContent,
} from '@whistle/crypto';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import {
  encryptedReport,
  json,
  staffSession,
  staffState,
  staffView,
  testCompany,
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

// The upload itself (XMLHttpRequest to the file service) is the API client's, tested there: here, what it is given.
jest.mock('@whistle/api-client', () => ({
  ...jest.requireActual('@whistle/api-client'),
  uploadIncidentFile: jest.fn(async () => ({})),
}));

const realFetch = global.fetch;
let company: TestCompany;
let english: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';
const SIGNER_KEY_ID = 'b0000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

/** A case with no messages yet; the incident service answers a reply with its signature's key id, as it does. */
async function openCase(person?: Awaited<ReturnType<typeof importPersonKeys>>) {
  const report = await encryptedReport(company, { description: 'Invoices paid twice' });
  const view = staffView({ uuid, keys: report.keys, fields: report.fields });
  global.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, view);
    if (method === 'POST' && url === '/api/incident/message/') {
      const body = JSON.parse(init.body as string) as { content: string; signature?: object };
      return json(201, {
        uuid: 'c0000000-0000-4000-8000-000000000001',
        incident_uuid: uuid,
        content: body.content,
        created: '2026-11-22T10:00:00Z',
        sender: { name: 'Hal Handler', source: 'STAFF' },
        signature: body.signature ? { ...body.signature, signer_key_id: SIGNER_KEY_ID } : null,
      });
    }
    if (method === 'GET' && /\/(message|note|file)$/.test(url)) return json(200, []);
    return json(404, { message: 'Not Found' });
  }) as unknown as typeof fetch;
  jest.mocked(uploadIncidentFile).mockClear();
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
  renderWithI18n(
    <StaffSessionContext.Provider
      value={staffSession(company.privateKey, staffState(), person, 'FING ERPR INT0 0000 0001')}
    >
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  return report.credentials.incident.publicKey;
}

async function replyWithFile() {
  const thread = await screen.findByRole('region', { name: 'Case timeline' });
  fireEvent.change(within(thread).getByLabelText('Reply to the reporter'), { target: { value: 'See the form' } });
  fireEvent.change(thread.querySelector<HTMLInputElement>('input[type="file"]')!, {
    target: { files: [new File(['Fill in, please'], 'form.txt', { type: 'text/plain' })] },
  });
  await within(thread).findByText('form.txt', { selector: '.wh-files__name' });
  await waitFor(() => expect(within(thread).getByRole('button', { name: 'Send' })).toBeEnabled());
  fireEvent.click(within(thread).getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(uploadIncidentFile).toHaveBeenCalledTimes(1));
  return jest.mocked(uploadIncidentFile).mock.calls[0]![1] as FileUpload;
}

describe('files of a reply to the reporter (issue #25, item 4)', () => {
  it('when staff with their keys unlocked send a file, then it carries their signature over its name, key and ciphertext, which verifies', async () => {
    const { publicKeys, secret } = await createPersonKeys();
    const incidentPublicKey = await openCase(await importPersonKeys(secret, publicKeys));
    const sent = await replyWithFile();
    expect(sent.content_digest).toBe(await fileContentDigest(sent.ciphertext));
    expect(sent.signer_key_id).toBe(SIGNER_KEY_ID);
    const team = new Map([
      [
        SIGNER_KEY_ID,
        { key_id: SIGNER_KEY_ID, signing_public_key: publicKeys.signing_public_key, role: 'HANDLER' as const },
      ],
    ]);
    const signed = {
      incidentPublicKey,
      kind: 'file' as const,
      signature: { nonce: sent.signature_nonce!, signature: sent.signature!, signer_key_id: SIGNER_KEY_ID },
    };
    const parts = {
      encrypted_file_name: sent.file_name,
      encrypted_key: sent.encrypted_key,
      content_digest: sent.content_digest!,
    };
    await expect(verifyStaffContent(team, { ...signed, ciphertexts: staffFileCiphertexts(parts) })).resolves.toBe(true);
    // The signature holds for this file only.
    const otherDigest = await fileContentDigest(new Uint8Array([1, 2, 3]));
    await expect(
      verifyStaffContent(team, {
        ...signed,
        ciphertexts: staffFileCiphertexts({ ...parts, content_digest: otherDigest }),
      }),
    ).resolves.toBe(false);
  });

  it('when staff without their keys unlocked send a file, then it goes unsigned, as their reply', async () => {
    await openCase();
    const sent = await replyWithFile();
    for (const field of ['signature', 'signature_nonce', 'signer_key_id', 'content_digest'])
      expect(sent).not.toHaveProperty(field);
  });
});
