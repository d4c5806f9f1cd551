import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import { createCompanyCredentials, createIncidentCredentials } from '@whistle/crypto';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { openEventBus } from '@whistle/service-kit';
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

interface Session {
  incidentId: string;
  companyId: string;
  token: string;
}

// Small limits, so that each is reached in a few uploads.
const limits = {
  FILES_PER_MESSAGE_MAX: '2',
  FILES_PER_INCIDENT_MAX: '6',
  BYTES_PER_INCIDENT_MAX: '2500000',
  UPLOAD_LIMIT_PER_INCIDENT: '4',
  UPLOAD_LIMIT_PER_CLIENT: '5',
  UPLOAD_MESSAGE_WAIT_MS: '1500',
};

describe.each(testStacks)('upload limits and message links on %s', (stack) => {
  let test$: TestDependencies;
  let store: InspectableStore;
  let file: RunningFile;
  let publicKey: string;
  let announceMessage: Awaited<ReturnType<typeof messageAnnouncer>>;
  const tokens = discloserTokens();

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['file']);
    store = await createInspectableStore(stack);
    // Behind a trusted proxy, so each test is its own client address.
    file = await startFile({ ...test$.deps, objects: store.objects }, tokens.publicKeyPem, {
      env: limits,
      trustProxy: true,
    });
    announceMessage = await messageAnnouncer(test$);
    publicKey = (await createIncidentCredentials((await createCompanyCredentials()).credential.public_key)).incident
      .publicKey;
  });
  afterAll(async () => {
    await file?.close();
    await store?.dispose();
    await test$?.dispose();
  });

  let client = '';
  // The PostgreSQL stack keeps its hourly counters across runs: an address drawn from 250 met an earlier run's.
  const octet = () => Math.floor(Math.random() * 250) + 1;
  const anyAddress = () => `10.${octet()}.${octet()}.${octet()}`;
  beforeEach(() => {
    client = anyAddress();
  });

  async function upload(
    session: Session,
    { messageId = null, size = 100 }: { messageId?: string | null; size?: number } = {},
    baseUrl = file.baseUrl,
  ): Promise<{ status: number; body: { message: string; errors?: Record<string, string[]> } }> {
    const { body } = await encryptedUploadBody(publicKey, session.incidentId, randomBytes(size), {
      incident_message_uuid: messageId,
    });
    const response = await fetch(`${baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: {
        'content-type': FILE_UPLOAD_CONTENT_TYPE,
        accept: 'application/json',
        authorization: `Bearer ${session.token}`,
        'x-forwarded-for': client,
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as never };
  }

  /** The status answered to an upload whose body starts and never ends. */
  function answerBeforeBody(session: Session): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${file.baseUrl}/api/incident/file/`, {
        method: 'POST',
        headers: {
          'content-type': FILE_UPLOAD_CONTENT_TYPE,
          authorization: `Bearer ${session.token}`,
          'x-forwarded-for': client,
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
        request.destroy();
      });
      request.on('error', reject);
      request.write(`{"incident_uuid":"${session.incidentId}","content":"AQ`);
    });
  }

  const stored = async () => ({
    rows: await countRows(test$.deps.db, 'file.file'),
    objects: (await store.keys()).length,
  });

  test("when an upload names another company's message, another case's or none that exists, then 400 on incident_message_uuid and nothing is stored", async () => {
    const session = await tokens.forNewIncident();
    const sameCompanyCase = await tokens.forNewIncident(session.companyId);
    const otherCompany = await tokens.forNewIncident();
    const foreign = [await announceMessage(otherCompany), await announceMessage(sameCompanyCase), randomUUID()];
    // The foreign messages are known to the file service: refused for what they are, not for arriving late.
    await upload(otherCompany, { messageId: foreign[0] }).then(({ status }) => expect(status).toBe(201));
    const before = await stored();

    for (const messageId of foreign) {
      const answer = await upload(session, { messageId });
      expect(answer).toEqual({
        status: 400,
        body: { message: 'Invalid request body', errors: { incident_message_uuid: ['No such message in this case'] } },
      });
    }
    expect(await stored()).toEqual(before);
  });

  test('when the files come before the message is announced here, then the upload waits for it and links the file', async () => {
    const session = await tokens.forNewIncident();
    const messageId = randomUUID();
    const uploading = upload(session, { messageId });
    await sleep(200);
    await announceMessage(session, messageId);
    const answer = await uploading;
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ incident_message_uuid: messageId });
  });

  test('when a message or the report already has its files, then 409 says the limit; another message still takes files', async () => {
    const staff = await tokens.staffOf(await tokens.forNewIncident());
    const message = await announceMessage(staff);
    const next = await announceMessage(staff);
    for (let i = 0; i < 2; i += 1) {
      expect((await upload(staff, { messageId: message })).status).toBe(201);
      expect((await upload(staff)).status).toBe(201);
    }
    const before = await stored();

    for (const messageId of [message, null]) {
      expect(await upload(staff, { messageId })).toEqual({
        status: 409,
        body: { message: 'A message takes at most 2 files' },
      });
    }
    expect(await stored()).toEqual(before);
    expect((await upload(staff, { messageId: next })).status).toBe(201);
  });

  test('when a case has its files or its bytes, then 409 says the limit, checked before the body is read', async () => {
    const full = await tokens.staffOf(await tokens.forNewIncident());
    const messages = [await announceMessage(full), await announceMessage(full), await announceMessage(full)];
    for (const messageId of [null, ...messages.slice(0, 2)]) {
      for (let i = 0; i < 2; i += 1) expect((await upload(full, { messageId })).status).toBe(201);
    }
    const before = await stored();
    expect(await upload(full, { messageId: messages[2] })).toEqual({
      status: 409,
      body: { message: 'A case takes at most 6 files' },
    });

    const heavy = await tokens.staffOf(await tokens.forNewIncident());
    expect((await upload(heavy, { size: 2_000_000 })).status).toBe(201);
    expect(await upload(heavy, { size: 600_000 })).toEqual({
      status: 409,
      body: { message: 'The files of a case take at most 2.5 MB' },
    });
    expect((await upload(heavy, { size: 500_000 })).status).toBe(201);
    // Now full to the byte: even an empty file is refused, and before its body is read (it never ends here).
    expect(await answerBeforeBody(heavy)).toBe(409);
    expect(await stored()).toEqual({ rows: before.rows + 2, objects: before.objects + 2 });
  });

  test("when a case's discloser sends more files an hour than allowed, then 429, whatever the token; staff are not counted", async () => {
    const session = await tokens.forNewIncident();
    const messageId = await announceMessage(session);
    for (const each of [null, null, messageId, messageId]) {
      expect((await upload(session, { messageId: each })).status).toBe(201);
      // A new address each time: the case's count is what stops the next one, not the client's.
      client = anyAddress();
    }
    const renewed = { ...session, token: await tokens.sign(session) };
    expect(await upload(renewed, { messageId: await announceMessage(session) })).toEqual({
      status: 429,
      body: { message: 'Too many files were sent, please try again later' },
    });
    const staff = await tokens.staffOf(session);
    expect((await upload(staff, { messageId: await announceMessage(session) })).status).toBe(201);
  });

  test('when one client address sends more files an hour than allowed, then 429 across cases', async () => {
    for (let i = 0; i < 5; i += 1) expect((await upload(await tokens.forNewIncident())).status).toBe(201);
    const refused = await fetch(`${file.baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: {
        'content-type': FILE_UPLOAD_CONTENT_TYPE,
        authorization: `Bearer ${(await tokens.forNewIncident()).token}`,
        'x-forwarded-for': client,
      },
      body: '{}',
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: 'Too many files were sent, please try again later' });
  });

  // Replicas are a cluster's: on PGlite (the standalone platform, one process) the counters are that process's.
  const clusterTest = stack.startsWith('postgres') ? test : test.skip;
  clusterTest(
    'when two replicas share UPLOAD_LIMIT_KEY (no object store key), then one address is counted across both',
    async () => {
      // As with S3 by cloud identity: no static object store key, so only the counters' own key lets replicas share
      // them. Each replica has its own bus (uploads without a message need none); the database is the stack's.
      const shared = { ...limits, UPLOAD_LIMIT_KEY: 'an upload-limit key of at least 32 characters' };
      const buses = [
        await openEventBus({ logger: test$.deps.logger }),
        await openEventBus({ logger: test$.deps.logger }),
      ];
      const replicas = await Promise.all(
        buses.map((bus) =>
          startFile({ ...test$.deps, bus, objects: store.objects }, tokens.publicKeyPem, {
            env: shared,
            trustProxy: true,
          }),
        ),
      );
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i += 1)
          statuses.push((await upload(await tokens.forNewIncident(), {}, replicas[i % 2].baseUrl)).status);
        expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
      } finally {
        await Promise.all(replicas.map((replica) => replica.close()));
        await Promise.all(buses.map((bus) => bus.close()));
      }
    },
  );
});
