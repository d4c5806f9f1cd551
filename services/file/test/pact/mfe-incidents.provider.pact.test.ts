import { randomBytes } from 'node:crypto';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import { createCompanyCredentials, createIncidentCredentials, encryptFile } from '@whistle/crypto';
import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';
import { FILE_STATE } from '../../../../mfe-incidents/test/pact/fixtures';
import {
  createInspectableStore,
  discloserTokens,
  startFile,
  type InspectableStore,
  type RunningFile,
} from '../support';

let test$: TestDependencies;
let store: InspectableStore;
let file: RunningFile;
const tokens = discloserTokens();

beforeAll(async () => {
  test$ = await createTestDependencies('pglite+in-process');
  store = await createInspectableStore('pglite+in-process');
  file = await startFile({ ...test$.deps, objects: store.objects }, tokens.publicKeyPem);
});
afterAll(async () => {
  await file?.close();
  await store?.dispose();
  await test$?.dispose();
});

/** A discloser's file on a case, and a staff member's file token for that case. */
async function staffFileToken(): Promise<{ fileToken: string; fileUuid: string }> {
  const discloser = await tokens.forNewIncident();
  const incidentKeys = await createIncidentCredentials((await createCompanyCredentials()).credential.public_key);
  const plaintext = randomBytes(12);
  const encrypted = await encryptFile(incidentKeys.incident.publicKey, plaintext, { fileName: 'ledger.txt' });
  const response = await fetch(`${file.baseUrl}/api/incident/file/`, {
    method: 'POST',
    headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE, authorization: `Bearer ${discloser.token}` },
    body: JSON.stringify({
      incident_uuid: discloser.incidentId,
      incident_message_uuid: null,
      mime_type: 'text/plain',
      file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      file_size: plaintext.length,
      content: Buffer.from(encrypted.ciphertext).toString('base64'),
    }),
  });
  if (response.status !== 201) throw new Error(`upload refused: ${response.status}`);
  const { uuid } = (await response.json()) as { uuid: string };
  return { fileToken: (await tokens.staffOf(discloser)).token, fileUuid: uuid };
}

test(
  "when the staff case page's pact is replayed against file, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-incidents',
      provider: 'whistle-file',
      baseUrl: file.baseUrl,
      stateHandlers: { [FILE_STATE]: staffFileToken },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
