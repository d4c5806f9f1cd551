/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { EventEnvelope } from '@whistle/contracts';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  decryptFile,
  wrapToPublicKey,
  type IncidentCredentials,
} from '@whistle/crypto';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
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

type Session = Awaited<ReturnType<ReturnType<typeof discloserTokens>['forNewIncident']>>;

describe.each(testStacks)('file uploads and downloads on %s', (stack) => {
  let test$: TestDependencies;
  let store: InspectableStore;
  let file: RunningFile;
  let incidentKeys: IncidentCredentials;
  const tokens = discloserTokens();
  const published: EventEnvelope[] = [];
  let announceMessage: Awaited<ReturnType<typeof messageAnnouncer>>;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['file', 'file-test-observer']);
    store = await createInspectableStore(stack);
    await test$.deps.bus.subscribe({
      consumer: 'file-test-observer',
      events: ['incident.file.created', 'incident.file.downloaded'],
      handle: async (event) => void published.push(event),
    });
    file = await startFile({ ...test$.deps, objects: store.objects }, tokens.publicKeyPem);
    announceMessage = await messageAnnouncer(test$);
    incidentKeys = await createIncidentCredentials((await createCompanyCredentials()).credential.public_key);
  });
  afterAll(async () => {
    await file?.close();
    await store?.dispose();
    await test$?.dispose();
  });

  const uploadBody = (session: Session, plaintext: Uint8Array, overrides: Record<string, unknown> = {}) =>
    encryptedUploadBody(incidentKeys.incident.publicKey, session.incidentId, plaintext, overrides);

  const upload = (session: Session | undefined, body: unknown, contentType = FILE_UPLOAD_CONTENT_TYPE) =>
    fetch(`${file.baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        accept: 'application/json',
        ...(session ? { authorization: `Bearer ${session.token}` } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  /** Nothing of a refused upload remains: no row, no event in the outbox, no object. */
  async function expectNothingStoredSince(before: { rows: number; outbox: number; objects: number }) {
    expect(await countRows(test$.deps.db, 'file.file')).toBe(before.rows);
    expect(await countRows(test$.deps.db, 'file.outbox')).toBe(before.outbox);
    expect((await store.keys()).length).toBe(before.objects);
  }
  const snapshot = async () => ({
    rows: await countRows(test$.deps.db, 'file.file'),
    outbox: await countRows(test$.deps.db, 'file.outbox'),
    objects: (await store.keys()).length,
  });

  test('when a discloser uploads an encrypted file, then its ciphertext is stored, its metadata kept and the event carries ids and size only', async () => {
    const session = await tokens.forNewIncident();
    const plaintext = randomBytes(100_000);
    const { body, encrypted } = await uploadBody(session, plaintext, {
      incident_message_uuid: await announceMessage(session),
    });
    const response = await upload(session, body);
    expect(response.status).toBe(201);
    const created = (await response.json()) as {
      uuid: string;
      file_size: number;
      file_name: string;
      encrypted_key: string;
    };
    expect(created).toMatchObject({
      incident_uuid: session.incidentId,
      file_size: 100_000,
      mime_type: 'application/pdf',
      file_name: encrypted.encrypted_file_name,
    });

    const { rows } = await test$.deps.db.query<{ object_key: string; company_id: string }>(
      'select object_key, company_id from file.file where id = $1',
      [created.uuid],
    );
    expect(rows[0].company_id).toBe(session.companyId);
    expect((await store.read(rows[0].object_key)).equals(Buffer.from(encrypted.ciphertext))).toBe(true);

    const event = await waitFor(() => published.find((each) => each.payload.incident_file_id === created.uuid), {
      what: 'incident.file.created',
    });
    expect(event.company_id).toBe(session.companyId);
    expect(event.payload).toEqual({
      incident_id: session.incidentId,
      incident_file_id: created.uuid,
      incident_message_id: body.incident_message_uuid,
      file_size: 100_000,
      mime_type: 'application/pdf',
    });
  });

  test('when a 25 MB file is uploaded, then it is stored and read back byte-equal, and decrypts to the original', async () => {
    const session = await tokens.forNewIncident();
    const plaintext = randomBytes(25_000_000);
    const { body, encrypted } = await uploadBody(session, plaintext);
    const response = await upload(session, body);
    expect(response.status).toBe(201);
    const created = (await response.json()) as { uuid: string };

    const download = await fetch(`${file.baseUrl}/api/incident/file/${created.uuid}`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    // Padded inside the encryption: the largest file stays within the limit and is stored in its bucket.
    expect(download.headers.get('content-length')).toBe(String(25_165_853));
    const ciphertext = Buffer.from(await download.arrayBuffer());
    expect(ciphertext.equals(Buffer.from(encrypted.ciphertext))).toBe(true);
    const opened = await decryptFile(incidentKeys.incident, {
      ciphertext,
      encrypted_key: download.headers.get('x-whistle-encrypted-key')!,
      encrypted_file_name: download.headers.get('x-whistle-encrypted-file-name')!,
    });
    expect(opened.fileName).toBe('evidence.pdf');
    expect(Buffer.from(opened.content).equals(plaintext)).toBe(true);
  });

  test('when files of nearby sizes are uploaded, then their stored objects have one padded size (issue #26)', async () => {
    const session = await tokens.forNewIncident();
    const sizes = [1_000_000, 1_005_000, 1_015_000];
    const stored: number[] = [];
    for (const size of sizes) {
      const { body } = await uploadBody(session, randomBytes(size));
      const response = await upload(session, body);
      expect(response.status).toBe(201);
      const created = (await response.json()) as { uuid: string; file_size: number };
      expect(created.file_size).toBe(size);
      const { rows } = await test$.deps.db.query<{ object_key: string }>(
        'select object_key from file.file where id = $1',
        [created.uuid],
      );
      stored.push((await store.read(rows[0].object_key)).length);
    }
    expect(stored).toEqual([1_015_837, 1_015_837, 1_015_837]);
  });

  test('when a file in the format from before padding (1) is uploaded, then it is kept, served whole and opens', async () => {
    const session = await tokens.forNewIncident();
    const plaintext = randomBytes(5000);
    const fileKey = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', fileKey, iv);
    cipher.setAAD(Uint8Array.of(1));
    const ciphertext = Buffer.concat([
      Uint8Array.of(1),
      iv,
      cipher.update(plaintext),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    const { body } = await uploadBody(session, plaintext, {
      content: ciphertext.toString('base64'),
      encrypted_key: await wrapToPublicKey(incidentKeys.incident.publicKey, fileKey, 'file-key'),
    });
    const response = await upload(session, body);
    expect(response.status).toBe(201);
    const created = (await response.json()) as { uuid: string };
    const download = await fetch(`${file.baseUrl}/api/incident/file/${created.uuid}`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(download.headers.get('content-length')).toBe(String(5029));
    const opened = await decryptFile(incidentKeys.incident, {
      ciphertext: Buffer.from(await download.arrayBuffer()),
      encrypted_key: download.headers.get('x-whistle-encrypted-key')!,
      encrypted_file_name: download.headers.get('x-whistle-encrypted-file-name')!,
    });
    expect(Buffer.from(opened.content).equals(plaintext)).toBe(true);
  });

  test('when a file of 25,000,001 bytes is uploaded, then 413 says the limit and nothing is stored', async () => {
    const session = await tokens.forNewIncident();
    const before = await snapshot();
    const { body } = await uploadBody(session, randomBytes(25_000_001));
    const response = await upload(session, body);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Max file size is 25MB' });
    await expectNothingStoredSince(before);
  });

  test('when an oversized body comes chunked (no length given), then 413 while streaming and nothing is stored', async () => {
    const session = await tokens.forNewIncident();
    const before = await snapshot();
    const piece = Buffer.from('A'.repeat(1 << 20));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(Buffer.from(`{"incident_uuid":"${session.incidentId}","content":"`));
      },
      pull(controller) {
        // Far past the limit unless the server stops reading; then the stream is simply abandoned.
        if (sent > 40 * (1 << 20)) controller.close();
        else {
          controller.enqueue(piece);
          sent += piece.length;
        }
      },
    });
    const response = await fetch(`${file.baseUrl}/api/incident/file/`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE, authorization: `Bearer ${session.token}` },
    } as RequestInit);
    expect(response.status).toBe(413);
    await expectNothingStoredSince(before);
  });

  test('when the declared length is past the limit, then 413 comes before the body is read', async () => {
    const session = await tokens.forNewIncident();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${file.baseUrl}/api/incident/file/`, {
        method: 'POST',
        headers: {
          'content-type': FILE_UPLOAD_CONTENT_TYPE,
          'content-length': String(40_000_000),
          authorization: `Bearer ${session.token}`,
        },
      });
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
      // Headers only: the answer must not wait for 40 MB that never come.
      request.flushHeaders();
    });
    expect(status).toBe(413);
  });

  test.each([
    ['no content', (body: Record<string, unknown>) => ({ ...body, content: undefined }), 400, 'content'],
    ['content that is not base64', (body: Record<string, unknown>) => ({ ...body, content: '%%%%' }), 400, 'content'],
    [
      // Within a padding bucket the server cannot tell the sizes apart; a size of another bucket it can.
      'content of another size than file_size says',
      (body: Record<string, unknown>) => ({ ...body, file_size: (body.file_size as number) * 2 }),
      400,
      'content',
    ],
    [
      'content that is not an encrypted file',
      (body: Record<string, unknown>) => ({
        ...body,
        content: Buffer.alloc(1029, 7).toString('base64'),
        file_size: 1000,
      }),
      400,
      'content',
    ],
    [
      'a file name in clear',
      (body: Record<string, unknown>) => ({ ...body, file_name: 'evidence.pdf' }),
      400,
      'file_name',
    ],
    [
      'a malformed file key',
      (body: Record<string, unknown>) => ({ ...body, encrypted_key: 'key' }),
      400,
      'encrypted_key',
    ],
    ['no incident', (body: Record<string, unknown>) => ({ ...body, incident_uuid: undefined }), 400, 'incident_uuid'],
    ['no mime type', (body: Record<string, unknown>) => ({ ...body, mime_type: undefined }), 400, 'mime_type'],
    [
      'a declared size past 25 MB',
      (body: Record<string, unknown>) => ({ ...body, file_size: 25_000_001 }),
      413,
      undefined,
    ],
    [
      'another incident than the session',
      (body: Record<string, unknown>) => ({ ...body, incident_uuid: randomUUID() }),
      403,
      undefined,
    ],
  ])(
    'when the upload has %s, then it is refused clearly and nothing is stored',
    async (_what, change, status, field) => {
      const session = await tokens.forNewIncident();
      const before = await snapshot();
      const { body } = await uploadBody(session, randomBytes(1000));
      const response = await upload(session, change(body));
      expect(response.status).toBe(status);
      const answer = (await response.json()) as { message: string; errors?: Record<string, string[]> };
      expect(answer.message).toEqual(expect.any(String));
      if (field) expect(Object.keys(answer.errors ?? {})).toContain(field);
      await expectNothingStoredSince(before);
    },
  );

  test('when the body is not JSON, is nested, has no session or comes as plain JSON, then 4xx and nothing is stored', async () => {
    const session = await tokens.forNewIncident();
    const before = await snapshot();
    const { body } = await uploadBody(session, randomBytes(10));
    expect((await upload(session, '{"content": "AAAA"')).status).toBe(400);
    expect((await upload(session, { ...body, mime_type: { nested: true } })).status).toBe(400);
    expect((await upload(session, [body])).status).toBe(400);
    expect((await upload(undefined, body)).status).toBe(401);
    const plainJson = await upload(session, body, 'application/json');
    expect(plainJson.status).toBe(415);
    expect(((await plainJson.json()) as { message: string }).message).toContain(FILE_UPLOAD_CONTENT_TYPE);
    await expectNothingStoredSince(before);
  });

  test("when a file is asked for with another incident's session, without a session or unknown, then it is not given", async () => {
    const owner = await tokens.forNewIncident();
    const stranger = await tokens.forNewIncident(owner.companyId);
    const response = await upload(owner, (await uploadBody(owner, randomBytes(10))).body);
    const { uuid } = (await response.json()) as { uuid: string };
    const get = (id: string, session?: Session, accept = 'application/octet-stream') =>
      fetch(`${file.baseUrl}/api/incident/file/${id}`, {
        headers: { accept, ...(session ? { authorization: `Bearer ${session.token}` } : {}) },
      });
    expect((await get(uuid, stranger)).status).toBe(404);
    expect((await get(uuid)).status).toBe(401);
    expect((await get(randomUUID(), owner)).status).toBe(404);
    const metadata = await get(uuid, owner, 'application/json');
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      uuid,
      incident_uuid: owner.incidentId,
      file_size: 10,
      encrypted_key: expect.stringMatching(/^v2\./),
    });
  });

  test('when staff hold the case’s file token, then they upload a reply’s file and download the discloser’s, each recorded with who did it', async () => {
    const discloser = await tokens.forNewIncident();
    const staff = await tokens.staffOf(discloser);
    const fromDiscloser = (await (
      await upload(discloser, (await uploadBody(discloser, randomBytes(20))).body)
    ).json()) as {
      uuid: string;
    };
    const replyId = await announceMessage(discloser);
    const staffUpload = await upload(
      staff,
      (await uploadBody(staff, randomBytes(30), { incident_message_uuid: replyId })).body,
    );
    expect(staffUpload.status).toBe(201);
    const fromStaff = (await staffUpload.json()) as { uuid: string; incident_message_uuid: string };
    expect(fromStaff.incident_message_uuid).toBe(replyId);

    const download = await fetch(`${file.baseUrl}/api/incident/file/${fromDiscloser.uuid}`, {
      headers: { accept: 'application/octet-stream', authorization: `Bearer ${staff.token}` },
    });
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    const created = await waitFor(() => published.find((event) => event.payload.incident_file_id === fromStaff.uuid), {
      what: 'the staff upload event',
    });
    expect(created.actor).toEqual({ type: 'STAFF', user_id: staff.staffUserId });
    const downloaded = await waitFor(
      () =>
        published.find(
          (event) => event.name === 'incident.file.downloaded' && event.payload.incident_file_id === fromDiscloser.uuid,
        ),
      { what: 'incident.file.downloaded' },
    );
    expect(downloaded.actor).toEqual({ type: 'STAFF', user_id: staff.staffUserId });
    expect(downloaded.payload).toEqual({ incident_id: discloser.incidentId, incident_file_id: fromDiscloser.uuid });
    expect(published.find((event) => event.payload.incident_file_id === fromDiscloser.uuid)?.actor).toEqual({
      type: 'DISCLOSER',
    });

    // A staff file token of another case opens nothing of this one.
    const otherCase = await tokens.staffOf(await tokens.forNewIncident(discloser.companyId), staff.staffUserId);
    const refused = await fetch(`${file.baseUrl}/api/incident/file/${fromDiscloser.uuid}`, {
      headers: { accept: 'application/octet-stream', authorization: `Bearer ${otherCase.token}` },
    });
    expect(refused.status).toBe(404);
  });
});
