/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import {
  decryptContent,
  decryptReportFields,
  deriveDiscloserAuthToken,
  encryptContent,
  openIncidentAsDiscloser,
} from '@whistle/crypto';
import { createOutbox, type Queryable } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import {
  getJson,
  postJson,
  prepareProducer,
  reportFor,
  retrievalUrl,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
} from './support';

async function count(db: Queryable, table: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`select count(*)::int as count from ${table}`);
  return rows[0].count;
}

/** Row counts of every table a refused report could have touched. */
async function storedCounts(db: Queryable) {
  return {
    incidents: await count(db, 'incident.incident'),
    categories: await count(db, 'incident.incident_category'),
    fields: await count(db, 'incident.incident_field'),
    outbox: await count(db, 'incident.outbox'),
  };
}

describe.each(testStacks)('incident service on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let otherCompany: SeededCompany;
  const published: EventEnvelope[] = [];

  const create = (body: unknown) => postJson(`${incident.baseUrl}/api/incident/`, body);

  /** Files a report and opens it as the discloser would with the secret code. */
  async function fileAndOpen(fields?: Record<string, string>) {
    const report = await reportFor(company, fields);
    const created = (await (await create(report.body)).json()) as { uuid: string; retrieval_id: string };
    const authToken = await deriveDiscloserAuthToken(report.credentials.discloserPassphrase);
    const view = (await (
      await getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id), authToken)
    ).json()) as {
      token: string;
      uuid: string;
    };
    return { report, created, view };
  }

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'incident-test-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'incident-test-observer',
      events: ['incident.#'],
      handle: async (event) => void published.push(event),
    });
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    otherCompany = await seedCompany(test$.deps);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  describe('reporting', () => {
    test('when a discloser reports, then the incident is stored encrypted, numbered, and announced with ids only', async () => {
      const { body } = await reportFor(
        company,
        { description: 'Invoices were forged', full_name: 'Jane Roe' },
        { report_channel: 'telephone' },
      );
      const response = await create(body);
      expect(response.status).toBe(201);
      const created = (await response.json()) as { uuid: string; retrieval_id: string; display_report_number: number };
      expect(created.retrieval_id).toMatch(/^[A-Za-z0-9_-]{1,128}$/);

      const { rows } = await test$.deps.db.query<{
        company_id: string;
        status: string;
        report_channel: string;
        discloser_auth_token_hash: string;
        display_report_number: number;
      }>(
        `select company_id, status, report_channel, discloser_auth_token_hash, display_report_number
           from incident.incident where id = $1`,
        [created.uuid],
      );
      expect(rows).toEqual([
        expect.objectContaining({ company_id: company.companyId, status: 'NEW', report_channel: 'telephone' }),
      ]);
      // The number the discloser's receipt names is the one the case has.
      expect(created.display_report_number).toBe(rows[0].display_report_number);
      // Only a hash of the auth token is kept.
      expect(rows[0].discloser_auth_token_hash).not.toContain(body.discloser_auth_token as string);
      const { rows: fields } = await test$.deps.db.query<{ name: string; value: string }>(
        'select name, value from incident.incident_field where incident_id = $1 order by position',
        [created.uuid],
      );
      expect(fields.map((field) => field.name)).toEqual(['description', 'full_name']);
      expect(fields.every((field) => field.value.startsWith('v2.'))).toBe(true);

      const event = await waitFor(
        () => published.find((each) => each.name === 'incident.created' && each.payload.incident_id === created.uuid),
        {
          what: 'incident.created',
        },
      );
      expect(event.company_id).toBe(company.companyId);
      expect(event.version).toBe(2);
      expect(event.payload).toEqual({
        incident_id: created.uuid,
        display_report_number: expect.any(Number),
        status: 'NEW',
        report_channel: 'telephone',
        report_anonymously: true,
        category_ids: [company.categories.fraud, company.categories.bribery],
        location_id: company.locations.office,
        excluded_user_ids: [],
      });
    });

    test('when reports of one company arrive at once, then each gets its own next report number', async () => {
      const reports = await Promise.all(Array.from({ length: 5 }, () => reportFor(otherCompany)));
      const answers = await Promise.all(reports.map((report) => create(report.body)));
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
      const { rows } = await test$.deps.db.query<{ display_report_number: number }>(
        'select display_report_number from incident.incident where company_id = $1 order by display_report_number',
        [otherCompany.companyId],
      );
      expect(rows.map((row) => row.display_report_number)).toEqual([1, 2, 3, 4, 5]);
    });

    test('when category, location and description are missing, then 400 says "This field is required" for each and nothing is stored', async () => {
      const before = await storedCounts(test$.deps.db);
      const { body } = await reportFor(company, { full_name: 'Jane Roe' });
      delete body.category_uuids;
      delete body.location_uuid;
      const response = await create(body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { errors: Record<string, string[]> };
      expect(answer.errors).toEqual({
        category_uuids: ['This field is required'],
        location_uuid: ['This field is required'],
        description: ['This field is required'],
      });
      expect(await storedCounts(test$.deps.db)).toEqual(before);
    });

    test('when no category is chosen or the body is empty, then each required field is named', async () => {
      const { body } = await reportFor(company, undefined, { category_uuids: [] });
      expect(((await (await create(body)).json()) as { errors: Record<string, string[]> }).errors).toEqual({
        category_uuids: ['This field is required'],
      });
      const empty = (await (await create({})).json()) as { errors: Record<string, string[]> };
      expect(empty.errors).toMatchObject({
        url_identifier: ['This field is required'],
        category_uuids: ['This field is required'],
        location_uuid: ['This field is required'],
        description: ['This field is required'],
        credential: ['This field is required'],
        discloser_auth_token: ['This field is required'],
      });
    });

    test.each([
      [
        'a category of another company',
        (_c: SeededCompany, o: SeededCompany) => ({ category_uuids: [o.categories.fraud] }),
        'category_uuids',
      ],
      [
        'a location of another company',
        (_c: SeededCompany, o: SeededCompany) => ({ location_uuid: o.locations.office }),
        'location_uuid',
      ],
      ['an unknown category', () => ({ category_uuids: [randomUUID()] }), 'category_uuids'],
      ['an inactive category', (c: SeededCompany) => ({ category_uuids: [c.categories.retired] }), 'category_uuids'],
      ['an inactive location', (c: SeededCompany) => ({ location_uuid: c.locations.closed }), 'location_uuid'],
      ['an unknown company', () => ({ url_identifier: 'no-such-company' }), 'url_identifier'],
    ])('when the report names %s, then 400 names the field and nothing is stored', async (_what, change, field) => {
      const before = await storedCounts(test$.deps.db);
      const { body } = await reportFor(company, undefined, change(company, otherCompany));
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(Object.keys(((await response.json()) as { errors: Record<string, string[]> }).errors)).toEqual([field]);
      expect(await storedCounts(test$.deps.db)).toEqual(before);
    });

    test.each([
      ['a field in clear', () => ({ fields: [{ name: 'description', value: 'plain words' }] }), 'fields.0.value'],
      [
        'a field the form does not have',
        () => ({
          fields: [
            { name: 'description', value: 'v1.AAAA.BBBB' },
            { name: 'salary', value: 'v1.AAAA' },
          ],
        }),
        'fields.1.name',
      ],
      [
        'a malformed public key',
        (body: Record<string, unknown>) => ({
          credential: { ...(body.credential as object), public_key: '-----BEGIN KEY-----' },
        }),
        'credential.public_key',
      ],
      [
        'a malformed wrapped passphrase',
        () => ({ company_encrypted_passphrase: 'not encrypted' }),
        'company_encrypted_passphrase',
      ],
      ['a malformed salt', () => ({ aes_salt: 'short' }), 'aes_salt'],
      ['a plaintext message-like extra field', () => ({ text: 'hello' }), 'non_field_errors'],
      ['an unknown channel', () => ({ report_channel: 'pigeon' }), 'report_channel'],
    ])('when the report carries %s, then 400 names it and nothing is stored', async (_what, change, field) => {
      const before = await storedCounts(test$.deps.db);
      const { body } = await reportFor(company);
      const response = await create({ ...body, ...change(body) });
      expect(response.status).toBe(400);
      expect(Object.keys(((await response.json()) as { errors: Record<string, string[]> }).errors)).toContain(field);
      expect(await storedCounts(test$.deps.db)).toEqual(before);
    });
  });

  describe('retried reports (Idempotency-Key)', () => {
    const createWithKey = (body: unknown, key: string) =>
      postJson(`${incident.baseUrl}/api/incident/`, body, { 'idempotency-key': key });

    test('when the same report is sent again with its key, even at the same time, then one case is stored and every answer is the first one', async () => {
      const { body } = await reportFor(company);
      const key = randomUUID();
      const before = await storedCounts(test$.deps.db);
      const answers = await Promise.all([createWithKey(body, key), createWithKey(body, key)]);
      const again = await createWithKey(body, key);
      const created = await Promise.all(
        [...answers, again].map(async (answer) => [answer.status, await answer.json()]),
      );
      expect(created[0]?.[0]).toBe(201);
      expect(created[0]?.[1]).toEqual({
        uuid: expect.any(String),
        retrieval_id: expect.any(String),
        display_report_number: expect.any(Number),
      });
      expect(created).toEqual([created[0], created[0], created[0]]);
      expect((await storedCounts(test$.deps.db)).incidents).toBe(before.incidents + 1);
      const announcements = () =>
        published.filter(
          (event) =>
            event.name === 'incident.created' &&
            event.payload.incident_id === (created[0]?.[1] as { uuid: string }).uuid,
        );
      // An empty list is truthy: wait for the first announcement itself, then give a second one time to show.
      await waitFor(async () => announcements()[0], { what: 'incident.created' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(announcements()).toHaveLength(1);
    });

    test('when a report is retried after it was stored, then the retry takes no number: the next report has the next one', async () => {
      const numbers = async () =>
        (
          await test$.deps.db.query<{ n: number }>(
            'select display_report_number as n from incident.incident where company_id = $1 order by 1',
            [company.companyId],
          )
        ).rows.map((row) => row.n);
      const { body } = await reportFor(company);
      const key = randomUUID();
      expect((await createWithKey(body, key)).status).toBe(201);
      const highest = (await numbers()).at(-1)!;
      expect((await createWithKey(body, key)).status).toBe(201);
      expect((await createWithKey(body, key)).status).toBe(201);
      expect((await create((await reportFor(company)).body)).status).toBe(201);
      expect((await numbers()).slice(-2)).toEqual([highest, highest + 1]);
    });

    test('when a key is reused for another report, then 409 and nothing more is stored; a malformed key is 400', async () => {
      const key = randomUUID();
      expect((await createWithKey((await reportFor(company)).body, key)).status).toBe(201);
      const before = await storedCounts(test$.deps.db);
      const other = await createWithKey((await reportFor(company)).body, key);
      expect(other.status).toBe(409);
      expect(await other.json()).toEqual({ message: 'This idempotency key was already used for another report' });
      const malformed = await createWithKey((await reportFor(company)).body, 'short key!');
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { errors: unknown }).errors).toEqual({
        'Idempotency-Key': ['Invalid idempotency key'],
      });
      expect(await storedCounts(test$.deps.db)).toEqual(before);
    });

    test('when reports of two companies, refused reports and copies of one retried report arrive at once, then each is answered as if it came alone', async () => {
      const numbersOf = async (companyId: string) =>
        (
          await test$.deps.db.query<{ n: number }>(
            'select display_report_number as n from incident.incident where company_id = $1 order by 1',
            [companyId],
          )
        ).rows.map((row) => row.n);
      const otherBefore = (await numbersOf(otherCompany.companyId)).at(-1) ?? 0;
      const copied = await reportFor(company, { description: 'Sent twice' });
      const key = randomUUID();
      const sent = [
        // Valid ones of both companies, each with its own labels and fields.
        ...(await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            reportFor(
              company,
              { description: `mine ${i}`, ...(i % 2 ? { full_name: `Person ${i}` } : {}) },
              {
                category_uuids:
                  i % 2 ? [company.categories.fraud] : [company.categories.fraud, company.categories.bribery],
              },
            ),
          ),
        )),
        ...(await Promise.all(
          Array.from({ length: 6 }, (_, i) => reportFor(otherCompany, { description: `theirs ${i}` })),
        )),
      ].map((report) => ({ report, send: () => create(report.body) }));
      const refused = [
        {
          body: (await reportFor(company, undefined, { category_uuids: [company.categories.retired] })).body,
          field: 'category_uuids',
        },
        {
          body: (await reportFor(company, undefined, { category_uuids: [otherCompany.categories.fraud] })).body,
          field: 'category_uuids',
        },
        {
          body: (await reportFor(company, undefined, { location_uuid: company.locations.closed })).body,
          field: 'location_uuid',
        },
        {
          body: (await reportFor(company, undefined, { url_identifier: 'no-such-company' })).body,
          field: 'url_identifier',
        },
      ];

      const [validAnswers, refusedAnswers, copyAnswers] = await Promise.all([
        Promise.all(sent.map(({ send }) => send())),
        Promise.all(refused.map(({ body }) => create(body))),
        Promise.all([createWithKey(copied.body, key), createWithKey(copied.body, key)]),
      ]);

      expect(validAnswers.map((answer) => answer.status)).toEqual(sent.map(() => 201));
      const created = (await Promise.all(validAnswers.map((answer) => answer.json()))) as { uuid: string }[];
      expect(new Set(created.map((each) => each.uuid)).size).toBe(sent.length);
      for (const [index, { report }] of sent.entries()) {
        const id = created[index]!.uuid;
        const { rows: labels } = await test$.deps.db.query<{ category_id: string }>(
          'select category_id from incident.incident_category where incident_id = $1 order by category_id',
          [id],
        );
        expect(labels.map((row) => row.category_id)).toEqual([...(report.body.category_uuids as string[])].sort());
        const { rows: fields } = await test$.deps.db.query<{ name: string; value: string }>(
          'select name, value from incident.incident_field where incident_id = $1 order by position',
          [id],
        );
        expect(fields).toEqual(report.body.fields);
      }

      expect(refusedAnswers.map((answer) => answer.status)).toEqual(refused.map(() => 400));
      const errors = (await Promise.all(refusedAnswers.map((answer) => answer.json()))) as { errors: object }[];
      expect(errors.map((each) => Object.keys(each.errors))).toEqual(refused.map(({ field }) => [field]));

      const copies = await Promise.all(copyAnswers.map(async (answer) => [answer.status, await answer.json()]));
      expect(copies[0]![0]).toBe(201);
      expect(copies[1]).toEqual(copies[0]);

      // Numbers stay unique; the other company, with no copies among its reports, has no gap.
      const mine = await numbersOf(company.companyId);
      expect(new Set(mine).size).toBe(mine.length);
      expect((await numbersOf(otherCompany.companyId)).slice(-6)).toEqual(
        Array.from({ length: 6 }, (_, i) => otherBefore + 1 + i),
      );
      // Each stored report is announced once.
      const ids = [...created.map((each) => each.uuid), (copies[0]![1] as { uuid: string }).uuid];
      await waitFor(
        () =>
          ids.every((id) =>
            published.some((event) => event.name === 'incident.created' && event.payload.incident_id === id),
          ),
        { what: 'every report announced' },
      );
      for (const id of ids)
        expect(
          published.filter((event) => event.name === 'incident.created' && event.payload.incident_id === id),
        ).toHaveLength(1);
    });

    test('when the database refuses one report of those arriving at once, then only that one fails, and it leaves nothing behind', async () => {
      const reports = await Promise.all(
        Array.from({ length: 8 }, (_, i) => reportFor(company, { description: `r${i}` })),
      );
      const poisoned = reports[3]!.body.fields as { name: string; value: string }[];
      // A refusal the service cannot foresee (as a constraint or a disk error would be), for this one report.
      await test$.deps.db.query(`
        create function incident.refuse_one_field() returns trigger language plpgsql as $$
        begin
          if new.value = '${poisoned[0]!.value}' then raise exception 'refused for the test'; end if;
          return new;
        end $$;
        create trigger refuse_one_field before insert on incident.incident_field
          for each row execute function incident.refuse_one_field();`);
      try {
        const before = await storedCounts(test$.deps.db);
        const answers = await Promise.all(reports.map((report) => create(report.body)));
        expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 500, 201, 201, 201, 201]);
        const after = await storedCounts(test$.deps.db);
        expect(after.incidents).toBe(before.incidents + 7);
        expect(after.fields).toBe(before.fields + 7);
      } finally {
        await test$.deps.db.query(
          'drop trigger refuse_one_field on incident.incident_field; drop function incident.refuse_one_field();',
        );
      }
    });

    test('when two companies happen to use one key, then each gets its own report', async () => {
      const key = randomUUID();
      const mine = (await (await createWithKey((await reportFor(company)).body, key)).json()) as { uuid: string };
      const theirs = await createWithKey((await reportFor(otherCompany)).body, key);
      expect(theirs.status).toBe(201);
      expect(((await theirs.json()) as { uuid: string }).uuid).not.toBe(mine.uuid);
    });
  });

  describe('retrieval by the discloser', () => {
    test('when the secret code is right, then the encrypted incident, its decryption material and a session token come back, and decrypt', async () => {
      const { report, created, view } = await fileAndOpen({ description: 'The audit was skipped', outcome: 'Fines' });
      const full = view as unknown as {
        uuid: string;
        display_report_number: number;
        status: { name: string };
        location: { name: string };
        categories: { name: string }[];
        fields: { name: string; value: string }[];
        credential: { public_key: string; aes_encrypted_private_key: string };
        aes_salt: string;
        aes_iv: string;
        discloser_encrypted_passphrase: string;
        token: string;
        report_channel: string;
      };
      expect(full).toMatchObject({
        uuid: created.uuid,
        status: { name: 'NEW' },
        location: { name: 'Head office' },
        report_channel: 'online',
      });
      expect(full.categories.map((category) => category.name)).toEqual(['Fraud', 'Bribery']);
      expect(full.token.split('.')).toHaveLength(3);

      const handle = await openIncidentAsDiscloser({
        ...full,
        discloserPassphrase: report.credentials.discloserPassphrase,
      });
      expect(await decryptReportFields(handle, full.fields)).toEqual([
        { name: 'description', value: 'The audit was skipped' },
        { name: 'outcome', value: 'Fines' },
      ]);
    });

    test('when the retrieval id, the token, the company or the token header is wrong, then every answer is the same 401', async () => {
      const { report, created } = await fileAndOpen();
      const rightToken = await deriveDiscloserAuthToken(report.credentials.discloserPassphrase);
      const attempts = [
        getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, 'f'.repeat(20)), rightToken),
        getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id), 'A'.repeat(43)),
        getJson(retrievalUrl(incident.baseUrl, otherCompany.urlIdentifier, created.retrieval_id), rightToken),
        getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id)),
      ];
      const answers = await Promise.all(attempts);
      const bodies = await Promise.all(answers.map((answer) => answer.text()));
      expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
      expect(new Set(bodies)).toEqual(new Set([JSON.stringify({ message: 'Invalid secret code' })]));
    });

    test('when the retrieval id is not of the secret-code alphabet, then 400 names it', async () => {
      const response = await getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, 'abc:def'), 'A'.repeat(43));
      expect(response.status).toBe(400);
      expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual(['retrieval_id']);
    });
  });

  describe('messages', () => {
    test('when a discloser writes more than 20 messages in an hour on a case, then the next gets 429 and nothing is stored; another case is not held up', async () => {
      const { report, view } = await fileAndOpen();
      const content = await encryptContent(report.credentials.incident.publicKey, 'Again', {
        kind: 'message',
        from: 'discloser',
      });
      // A client address of its own: the per-client budget is not what this test is about.
      const send = (session: { uuid: string; token: string }, client: string) =>
        postJson(
          `${incident.baseUrl}/api/incident/message/`,
          { incident_uuid: session.uuid, content },
          { authorization: `Bearer ${session.token}`, 'x-forwarded-for': client },
        );
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(view, `10.30.${i}.1`)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
      const refused = await send(view, '10.30.99.1');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ message: 'Too many messages were sent, please try again later' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const { rows } = await test$.deps.db.query<{ count: number }>(
        'select count(*)::int as count from incident.message where incident_id = $1',
        [view.uuid],
      );
      expect(rows[0]?.count).toBe(20);
      const other = await fileAndOpen();
      expect((await send(other.view, '10.30.98.1')).status).toBe(201);
    });

    test('when the discloser writes, then the message is stored encrypted, listed with its sender, and announced with ids only', async () => {
      const { report, view } = await fileAndOpen();
      const content = await encryptContent(report.credentials.incident.publicKey, 'Any news?', {
        kind: 'message',
        from: 'discloser',
      });
      const response = await postJson(
        `${incident.baseUrl}/api/incident/message/`,
        { incident_uuid: view.uuid, content },
        { authorization: `Bearer ${view.token}` },
      );
      expect(response.status).toBe(201);
      const message = (await response.json()) as { uuid: string; sender: object };
      expect(message.sender).toEqual({ name: 'Discloser', source: 'DISCLOSER' });

      const list = (await (
        await getJson(`${incident.baseUrl}/api/incident/${view.uuid}/message`, view.token)
      ).json()) as { uuid: string; content: string }[];
      expect(list.map((each) => each.uuid)).toEqual([message.uuid]);
      expect(
        await decryptContent(report.credentials.incident, list[0].content, { kind: 'message', from: 'discloser' }),
      ).toBe('Any news?');

      const event = await waitFor(
        () =>
          published.find(
            (each) => each.name === 'incident.message.created' && each.payload.incident_message_id === message.uuid,
          ),
        {
          what: 'incident.message.created',
        },
      );
      expect(event.payload).toEqual({
        incident_id: view.uuid,
        incident_message_id: message.uuid,
        sender_source: 'DISCLOSER',
      });
    });

    test('when the session token is missing, forged or for another incident, then messages are neither read nor written', async () => {
      const first = await fileAndOpen();
      const second = await fileAndOpen();
      const content = await encryptContent(first.report.credentials.incident.publicKey, 'hello', {
        kind: 'message',
        from: 'discloser',
      });
      const before = await count(test$.deps.db, 'incident.message');
      const write = (token?: string) =>
        postJson(
          `${incident.baseUrl}/api/incident/message`,
          { incident_uuid: first.view.uuid, content },
          token ? { authorization: `Bearer ${token}` } : {},
        );
      expect((await write()).status).toBe(401);
      expect((await write(`${first.view.token}x`)).status).toBe(401);
      expect((await write(second.view.token)).status).toBe(403);
      expect(
        (await getJson(`${incident.baseUrl}/api/incident/${first.view.uuid}/message`, second.view.token)).status,
      ).toBe(403);
      expect((await getJson(`${incident.baseUrl}/api/incident/${first.view.uuid}/message`)).status).toBe(401);
      expect(await count(test$.deps.db, 'incident.message')).toBe(before);
    });

    test('when a message comes as plaintext text or malformed ciphertext, then 400 and nothing is stored', async () => {
      const { view } = await fileAndOpen();
      const before = await count(test$.deps.db, 'incident.message');
      const post = (body: object) =>
        postJson(`${incident.baseUrl}/api/incident/message/`, body, { authorization: `Bearer ${view.token}` });
      expect((await post({ incident_uuid: view.uuid, text: 'in clear' })).status).toBe(400);
      expect((await post({ incident_uuid: view.uuid, content: 'in clear' })).status).toBe(400);
      expect((await post({ content: 'v1.AAAA' })).status).toBe(400);
      expect(await count(test$.deps.db, 'incident.message')).toBe(before);
    });
  });

  describe('files of an incident', () => {
    test('when the file service announces a file, then the incident lists it to its discloser (metadata only)', async () => {
      const { view } = await fileAndOpen();
      const fileId = randomUUID();
      await prepareProducer(test$.deps);
      const envelope = await test$.deps.db.transaction((tx) =>
        createOutbox('producer').add(tx, {
          name: 'incident.file.created',
          company_id: company.companyId,
          payload: {
            incident_id: view.uuid,
            incident_file_id: fileId,
            incident_message_id: null,
            file_size: 1234,
            mime_type: 'application/pdf',
          },
        }),
      );
      await test$.deps.bus.publish(envelope);
      const files = await waitFor(
        async () => {
          const list = (await (
            await getJson(`${incident.baseUrl}/api/incident/${view.uuid}/file`, view.token)
          ).json()) as object[];
          return list.length > 0 ? list : undefined;
        },
        { what: 'the file in the list' },
      );
      expect(files).toEqual([
        {
          uuid: fileId,
          incident_uuid: view.uuid,
          incident_message_uuid: null,
          file_size: 1234,
          mime_type: 'application/pdf',
          created: envelope.occurred_at,
        },
      ]);
    });
  });
});
