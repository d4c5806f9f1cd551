import type { i18n } from 'i18next';
import { fireEvent, screen, within } from '@testing-library/react';
import { createApiClient } from '@whistle/api-client';
import { createIncidentCredentials, encryptFile } from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { testCompany, useNodeWebCrypto } from '../../test/staff-fixtures';
import { CaseFiles } from './case-files.component';
import type { OpenedCase } from './use-case';

/* The case page's Preview: the file downloaded with the case's file token and decrypted as the download is. */

const realFetch = global.fetch;
const realCreate = URL.createObjectURL;
const realRevoke = URL.revokeObjectURL;
let english: i18n;
const shown: Blob[] = [];
const revoked: string[] = [];
const uuid = 'f0000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  useNodeWebCrypto();
  english = await initTestI18n<i18n>('en');
  URL.createObjectURL = (blob: Blob) => `blob:test/${shown.push(blob)}`;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});
afterAll(() => {
  global.fetch = realFetch;
  URL.createObjectURL = realCreate;
  URL.revokeObjectURL = realRevoke;
});

const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

it('decrypts the file into the preview, with the file token, and revokes its object URL on close', async () => {
  const { incident } = await createIncidentCredentials((await testCompany()).publicKey);
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  const encrypted = await encryptFile(incident.publicKey, png, { fileName: 'storeroom.png' });
  const requests: { url: string; authorization: string }[] = [];
  global.fetch = (async (url: string, init: RequestInit) => {
    requests.push({ url, authorization: (init.headers as Record<string, string>).Authorization });
    return new Response(encrypted.ciphertext as BlobPart, {
      headers: {
        'x-whistle-encrypted-key': encrypted.encrypted_key,
        'x-whistle-encrypted-file-name': encrypted.encrypted_file_name,
      },
    });
  }) as typeof fetch;
  const opened = {
    handle: incident,
    filesApi: createApiClient({ getToken: () => 'file-token' }),
  } as unknown as OpenedCase;
  renderWithI18n(
    <CaseFiles
      files={[{ uuid, messageUuid: null, size: png.length, mimeType: 'image/png', name: 'storeroom.png' }]}
      opened={opened}
    />,
    english,
  );

  fireEvent.click(screen.getByRole('button', { name: 'Preview storeroom.png' }));
  const dialog = screen.getByRole('dialog', { name: 'storeroom.png' });
  const image = await within(dialog).findByRole('img', { name: 'storeroom.png' });
  expect(image).toHaveAttribute('src', 'blob:test/1');
  expect(requests).toEqual([{ url: `/api/incident/file/${uuid}`, authorization: 'Bearer file-token' }]);
  expect(await bytesOf(shown[0])).toEqual(png);

  fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(revoked).toEqual(['blob:test/1']);
});
