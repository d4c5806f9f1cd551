import { createHash, randomBytes } from 'node:crypto';
import { FILE_UPLOAD_CONTENT_TYPE, type IncidentFile } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  createPersonKeys,
  importPersonKeys,
  signStaffContent,
  staffFileCiphertexts,
} from '@whistle/crypto';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import {
  countRows,
  createInspectableStore,
  discloserTokens,
  encryptedUploadBody,
  messageAnnouncer,
  startFile,
  type InspectableStore,
  type RunningFile,
} from './support';

const SIGNER_KEY_ID = '33333333-3333-4333-8333-333333333333';

describe.each(testStacks)('signed staff files on %s', (stack) => {
  let test$: TestDependencies;
  let store: InspectableStore;
  let file: RunningFile;
  let incidentPublicKey: string;
  let signer: Awaited<ReturnType<typeof importPersonKeys>>;
  let announceMessage: Awaited<ReturnType<typeof messageAnnouncer>>;
  const tokens = discloserTokens();

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['file']);
    store = await createInspectableStore(stack);
    file = await startFile({ ...test$.deps, objects: store.objects }, tokens.publicKeyPem);
    announceMessage = await messageAnnouncer(test$);
    incidentPublicKey = (await createIncidentCredentials((await createCompanyCredentials()).credential.public_key))
      .incident.publicKey;
    const { publicKeys, secret } = await createPersonKeys();
    signer = await importPersonKeys(secret, publicKeys);
  });
  afterAll(async () => {
    await file?.close();
    await store?.dispose();
    await test$?.dispose();
  });

  /** A staff reply's file as the case page sends it: encrypted, its digest taken and signed; `overrides` tamper. */
  async function signedUpload(overrides: Record<string, unknown> = {}) {
    const discloser = await tokens.forNewIncident();
    const staff = await tokens.staffOf(discloser);
    const replyId = await announceMessage(discloser);
    const { encrypted, body } = await encryptedUploadBody(incidentPublicKey, staff.incidentId, randomBytes(40), {
      incident_message_uuid: replyId,
    });
    const content_digest = createHash('sha256').update(encrypted.ciphertext).digest('base64url');
    const parts = await signStaffContent(signer, {
      incidentPublicKey,
      kind: 'file',
      ciphertexts: staffFileCiphertexts({ ...encrypted, content_digest }),
    });
    const signed = {
      ...body,
      signature: parts.signature,
      signature_nonce: parts.nonce,
      signer_key_id: SIGNER_KEY_ID,
      content_digest,
      ...overrides,
    };
    // A field set to undefined is left out of the body, as a browser would leave it out.
    return { discloser, staff, body: JSON.parse(JSON.stringify(signed)) as Record<string, unknown>, parts };
  }

  const upload = (token: string, body: Record<string, unknown>) =>
    fetch(`${file.baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: {
        'content-type': FILE_UPLOAD_CONTENT_TYPE,
        accept: 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
    });

  const snapshot = async () => ({
    rows: await countRows(test$.deps.db, 'file.file'),
    outbox: await countRows(test$.deps.db, 'file.outbox'),
    objects: (await store.keys()).length,
  });

  test('when staff upload a signed file, then its signature and digest are stored and handed back with the file', async () => {
    const { staff, discloser, body, parts } = await signedUpload();
    const answer = await upload(staff.token, body);
    expect(answer.status).toBe(201);
    const created = (await answer.json()) as IncidentFile;
    const signature = { signer_key_id: SIGNER_KEY_ID, nonce: parts.nonce, signature: parts.signature };
    expect(created).toMatchObject({ content_digest: body.content_digest, signature });

    // The discloser's page reads them with the file's name and key.
    const listed = await fetch(`${file.baseUrl}/api/incident/file/${created.uuid}`, {
      headers: { accept: 'application/json', authorization: `Bearer ${discloser.token}` },
    });
    expect(await listed.json()).toMatchObject({
      file_name: body.file_name,
      encrypted_key: body.encrypted_key,
      content_digest: body.content_digest,
      signature,
    });
  });

  test('when a discloser’s file is read, then it carries no signature', async () => {
    const discloser = await tokens.forNewIncident();
    const { body } = await encryptedUploadBody(incidentPublicKey, discloser.incidentId, randomBytes(10));
    const created = (await (await upload(discloser.token, body)).json()) as IncidentFile;
    expect(created).toMatchObject({ content_digest: null, signature: null });
  });

  test('when the signed digest is not that of the bytes sent, then the upload is refused and nothing is stored', async () => {
    const { staff, body } = await signedUpload({
      content_digest: createHash('sha256').update('another file').digest('base64url'),
    });
    const before = await snapshot();
    const answer = await upload(staff.token, body);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      errors: { content_digest: ['Does not match the uploaded content'] },
    });
    expect(await snapshot()).toEqual(before);
  });

  test.each([
    ['a signature without its digest', { content_digest: undefined }, 'content_digest'],
    ['a signature without its nonce', { signature_nonce: undefined }, 'signature_nonce'],
    ['a digest without a signature', { signature: undefined, signature_nonce: undefined }, 'signature'],
    ['a signature naming no key', { signer_key_id: undefined }, 'signer_key_id'],
  ])('when staff send %s, then the upload is refused and nothing is stored', async (_case, overrides, field) => {
    const { staff, body } = await signedUpload(overrides);
    const before = await snapshot();
    const answer = await upload(staff.token, body);
    expect(answer.status).toBe(400);
    expect(Object.keys(((await answer.json()) as { errors: object }).errors)).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  test('when a discloser’s upload carries a signature, then it is refused and nothing is stored', async () => {
    const { discloser, body } = await signedUpload({ incident_message_uuid: null });
    const before = await snapshot();
    const answer = await upload(discloser.token, { ...body, incident_uuid: discloser.incidentId });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      errors: { signature: ['Only files sent by the case team are signed'] },
    });
    expect(await snapshot()).toEqual(before);
  });
});
