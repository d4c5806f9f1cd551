import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import { createHash, randomUUID } from 'node:crypto';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  createPersonKeys,
  encryptFile,
  importPersonKeys,
  signStaffContent,
  staffFileCiphertexts,
} from '@whistle/crypto';
import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';
import {
  createInspectableStore,
  discloserTokens,
  startFile,
  type InspectableStore,
  type RunningFile,
} from '../support';
import { PACT_COMPANY_ID, PACT_INCIDENT } from '../../../../mfe-disclose/test/pact/fixtures';

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

/**
 * A file uploaded as the discloser's browser uploads it, for the incident the pact names; `signed`, as a staff
 * member's browser does, with its digest and signature (docs/security.md, "Signed staff messages").
 */
async function storedFile({ signed = false } = {}) {
  const sessionToken = await tokens.sign({ incidentId: PACT_INCIDENT, companyId: PACT_COMPANY_ID });
  const uploaderToken = signed
    ? await tokens.sign({ incidentId: PACT_INCIDENT, companyId: PACT_COMPANY_ID, staffUserId: randomUUID() })
    : sessionToken;
  const { credential } = await createCompanyCredentials();
  const { incident } = await createIncidentCredentials(credential.public_key);
  const encrypted = await encryptFile(incident.publicKey, new TextEncoder().encode('file content'), {
    fileName: 'evidence.txt',
  });
  const response = await fetch(`${file.baseUrl}/api/incident/file/`, {
    method: 'POST',
    headers: {
      'content-type': FILE_UPLOAD_CONTENT_TYPE,
      accept: 'application/json',
      authorization: `Bearer ${uploaderToken}`,
    },
    body: JSON.stringify({
      ...(signed ? await staffSignature(incident.publicKey, encrypted) : {}),
      incident_uuid: PACT_INCIDENT,
      incident_message_uuid: null,
      content: Buffer.from(encrypted.ciphertext).toString('base64'),
      file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      file_size: 12,
      mime_type: 'text/plain',
    }),
  });
  if (response.status !== 201) throw new Error(`upload refused: ${response.status}`);
  const { uuid: fileUuid } = (await response.json()) as { uuid: string };
  return { fileUuid, sessionToken };
}

async function staffSignature(
  incidentPublicKey: string,
  encrypted: { ciphertext: Uint8Array; encrypted_file_name: string; encrypted_key: string },
) {
  const { publicKeys, secret } = await createPersonKeys();
  const content_digest = createHash('sha256').update(encrypted.ciphertext).digest('base64url');
  const parts = await signStaffContent(await importPersonKeys(secret, publicKeys), {
    incidentPublicKey,
    kind: 'file',
    ciphertexts: staffFileCiphertexts({ ...encrypted, content_digest }),
  });
  return { signature: parts.signature, signature_nonce: parts.nonce, signer_key_id: randomUUID(), content_digest };
}

test(
  "when the discloser pages' pact is replayed against file, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-disclose',
      provider: 'whistle-file',
      baseUrl: file.baseUrl,
      stateHandlers: {
        [`a file stored for incident ${PACT_INCIDENT}`]: () => storedFile(),
        [`a signed staff file stored for incident ${PACT_INCIDENT}`]: () => storedFile({ signed: true }),
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
