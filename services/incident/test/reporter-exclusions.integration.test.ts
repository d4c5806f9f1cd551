import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { createIncidentCredentials, encryptReportFields, openIncidentWithGrant } from '@whistle/crypto';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import {
  announce,
  announceKeys as announceKeysOf,
  announceStaff,
  call,
  fileReport,
  postJson,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type KeyedMember,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

describe.each(testStacks)('the discloser keeps people out of their report, in the incident service, on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await test$.deps.bus.subscribe({
      consumer: 'reporter-exclusions-observer',
      events: ['incident.created'],
      handle: async (event) => void published.push(event),
    });
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  const as = async (member: StaffMember, method: string, path: string, body?: unknown) =>
    call(incident.baseUrl, method, path, { token: await member.token(), body });
  const announceKeys = (member: StaffMember) => announceKeysOf(test$.deps, member);

  /** Two admins, a reviewer; Hal and Olga, default assignees of Fraud. */
  async function team(company: SeededCompany) {
    const admin = await announceKeys(await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']));
    const secondAdmin = await announceKeys(await announceStaff(test$.deps, company, 'Bea Admin', ['ADMIN']));
    const reviewer = await announceKeys(await announceStaff(test$.deps, company, 'Rita Reviewer', ['REVIEWER']));
    const handler = await announceKeys(await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']));
    const other = await announceKeys(await announceStaff(test$.deps, company, 'Olga Other', ['HANDLER']));
    await announce(test$.deps, {
      name: 'category.updated',
      company_id: company.companyId,
      payload: {
        category_id: company.categories.fraud,
        name: 'Fraud',
        parent_id: null,
        is_active: true,
        assignee_ids: [handler.userId, other.userId],
      },
    });
    await waitFor(
      async () =>
        (
          await test$.deps.db.query('select 1 from incident.category where id = $1 and $2 = any(assignee_ids)', [
            company.categories.fraud,
            other.userId,
          ])
        ).rows.length > 0,
      { what: 'the default assignees in the read model' },
    );
    return { admin, secondAdmin, reviewer, handler, other };
  }

  /** What the report form sends: the passphrase wrapped to each of `readers`, and `excluded` kept out. */
  async function report(
    company: SeededCompany,
    readers: KeyedMember[],
    excluded: KeyedMember[],
    { withoutCompanyWrapping = false } = {},
  ) {
    const credentials = await createIncidentCredentials(
      company.publicKey,
      readers.map((member) => ({ key_id: member.keyId, public_key: member.keys.publicKeys.public_key })),
    );
    return {
      ...(await reportFor(company)).body,
      ...credentials.payload,
      ...(withoutCompanyWrapping ? { company_encrypted_passphrase: null } : {}),
      fields: await encryptReportFields(credentials.incident.publicKey, { description: 'About my manager' }),
      grants: credentials.grants,
      excluded_key_ids: excluded.map((member) => member.keyId),
    };
  }

  const incidentCount = async (company: SeededCompany) =>
    (
      await test$.deps.db.query<{ count: number }>(
        'select count(*)::int as count from incident.incident where company_id = $1',
        [company.companyId],
      )
    ).rows[0]!.count;

  /** Every staff route that hands out cases or their keys, as `member` calls it: none may name the case. */
  async function sweep(member: StaffMember, id: string) {
    const answers = await Promise.all([
      as(member, 'GET', '/api/incident/'),
      as(member, 'GET', '/api/incident/export'),
      as(member, 'GET', '/api/incident/search-corpus'),
      as(member, 'GET', '/api/incident/company-key/rewrap'),
      as(member, 'GET', `/api/incident/${id}/message`),
      as(member, 'GET', `/api/incident/${id}/file`),
      as(member, 'GET', `/api/incident/${id}/note`),
    ]);
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(id);
    expect((await as(member, 'GET', `/api/incident/${id}/`)).status).toBe(404);
    expect([403, 404]).toContain((await as(member, 'POST', `/api/incident/${id}/print`, {})).status);
  }

  it('when the discloser keeps a default assignee out, then they are not assigned, hold no grant, see nothing of the case and staff cannot lift it', async () => {
    const company = await seedCompany(test$.deps);
    const { admin, handler, other } = await team(company);
    const id = (await fileReport(incident.baseUrl, await report(company, [handler, other], [other]))).uuid;

    const rows = await test$.deps.db.query<{ user_id: string; by_reporter: boolean }>(
      'select user_id, by_reporter from incident.exclusion where incident_id = $1',
      [id],
    );
    expect(rows.rows).toEqual([{ user_id: other.userId, by_reporter: true }]);
    const holders = await test$.deps.db.query('select user_id from incident.case_grant where incident_id = $1', [id]);
    expect(holders.rows).toEqual([{ user_id: handler.userId }]);

    const view = await as(handler, 'GET', `/api/incident/${id}/`);
    expect(view.body.assignees.map((assignee: { uuid: string }) => assignee.uuid)).toEqual([handler.userId]);
    const opened = await openIncidentWithGrant({
      ...view.body.keys,
      grant: view.body.keys.my_grant.wrapped_passphrase,
      person: handler.keys,
    });
    expect(opened.publicKey).toBe(view.body.keys.credential.public_key);
    await sweep(other, id);

    const created = await waitFor(
      () => published.find((event) => event.name === 'incident.created' && event.payload.incident_id === id),
      { what: 'incident.created' },
    );
    expect(created.version).toBe(2);
    expect(created.payload.excluded_user_ids).toEqual([other.userId]);

    const lift = await as(admin, 'PUT', `/api/incident/${id}/`, { excluded_user_uuids: [] });
    expect(lift.status).toBe(400);
    expect(lift.body.errors.excluded_user_uuids).toBeDefined();
    const assign = await as(admin, 'PUT', `/api/incident/${id}/`, { assignee_uuids: [handler.userId, other.userId] });
    expect(assign.status).toBe(400);
  });

  it('when the discloser keeps an admin out, then the case has no company wrapping and only the remaining readers hold a key to it', async () => {
    const company = await seedCompany(test$.deps);
    const { admin, secondAdmin, reviewer, handler, other } = await team(company);
    const body = await report(company, [secondAdmin, reviewer, handler, other], [admin], {
      withoutCompanyWrapping: true,
    });
    const id = (await fileReport(incident.baseUrl, body)).uuid;

    const stored = await test$.deps.db.query(
      'select company_encrypted_passphrase from incident.incident where id = $1',
      [id],
    );
    expect(stored.rows).toEqual([{ company_encrypted_passphrase: null }]);
    await sweep(admin, id);

    // The other admin reads it with their own grant, not the company key.
    const view = await as(secondAdmin, 'GET', `/api/incident/${id}/`);
    expect(view.body.keys.company_encrypted_passphrase).toBeNull();
    expect(view.body.keys.my_grant.key_id).toBe(secondAdmin.keyId);
    await openIncidentWithGrant({
      ...view.body.keys,
      grant: view.body.keys.my_grant.wrapped_passphrase,
      person: secondAdmin.keys,
    });
    expect((await as(handler, 'GET', `/api/incident/${id}/`)).body.keys.my_grant.key_id).toBe(handler.keyId);
    // The reviewer sees every case: without the company wrapping, they read this one through their own grant too.
    expect((await as(reviewer, 'GET', `/api/incident/${id}/`)).body.keys.my_grant.key_id).toBe(reviewer.keyId);
  });

  it('when a report excludes everyone, someone unknown or of another company, or mismatches its company wrapping, then 400 and nothing is stored', async () => {
    const company = await seedCompany(test$.deps);
    const { admin, secondAdmin, reviewer, handler, other } = await team(company);
    const elsewhere = await seedCompany(test$.deps);
    const stranger = await announceKeys(await announceStaff(test$.deps, elsewhere, 'Sam Stranger', ['ADMIN']));
    const unknown = { ...handler, keyId: randomUUID() };
    const everyone = [admin, secondAdmin, reviewer, handler, other];
    const before = await incidentCount(company);

    const refusals: [Record<string, unknown>, string][] = [
      [await report(company, everyone, everyone, { withoutCompanyWrapping: true }), 'excluded_key_ids'],
      [await report(company, everyone, [unknown]), 'excluded_key_ids'],
      [await report(company, everyone, [stranger]), 'excluded_key_ids'],
      // An admin kept out but the company key still wraps it; no admin kept out and no company wrapping.
      [await report(company, everyone, [admin]), 'company_encrypted_passphrase'],
      [await report(company, everyone, [], { withoutCompanyWrapping: true }), 'company_encrypted_passphrase'],
      // No company wrapping and no grant for anyone who remains: nobody could open it.
      [await report(company, [admin], [admin], { withoutCompanyWrapping: true }), 'grants'],
    ];
    for (const [body, field] of refusals) {
      const response = await postJson(`${incident.baseUrl}/api/incident/`, body);
      expect(response.status).toBe(400);
      expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual([field]);
    }
    expect(await incidentCount(company)).toBe(before);
  });
});
