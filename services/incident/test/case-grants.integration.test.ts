import { randomUUID } from 'node:crypto';
import {
  createIncidentCredentials,
  createPersonKeys,
  DecryptionError,
  encryptReportFields,
  grantIncidentPassphrase,
  openIncidentWithGrant,
} from '@whistle/crypto';
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
  type RunningIncident,
  type SeededCompany,
  type KeyedMember,
  type StaffMember,
} from './support';

describe.each(testStacks)('per-case grants, in the incident service, on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
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

  async function team(company: SeededCompany) {
    const admin = await announceKeys(await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']));
    const handler = await announceKeys(await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']));
    const other = await announceKeys(await announceStaff(test$.deps, company, 'Olga Other', ['HANDLER']));
    return { admin, handler, other };
  }

  /** What the admin's browser sends: the passphrase opened with the company key, checked, wrapped to `to`. */
  async function grantFor(company: SeededCompany, view: { keys: never }, to: KeyedMember[]) {
    const wrapped = await grantIncidentPassphrase({
      ...(view.keys as Parameters<typeof grantIncidentPassphrase>[0]),
      companyPrivateKeys: [await company.privateKey()],
      recipientPublicKeys: to.map((member) => member.keys.publicKeys.public_key),
    });
    return to.map((member, index) => ({
      user_id: member.userId,
      fingerprint: member.fingerprint,
      wrapped_passphrase: wrapped[index]!,
    }));
  }

  async function newCase(company: SeededCompany) {
    return (await fileReport(incident.baseUrl, (await reportFor(company)).body)).uuid;
  }

  it('when an admin assigns a handler with a grant, then the handler is handed their own wrapping only and it opens the case', async () => {
    const company = await seedCompany(test$.deps);
    const { admin, handler, other } = await team(company);
    const id = await newCase(company);
    const before = await as(admin, 'GET', `/api/incident/${id}/`);
    expect(before.body.keys.my_grant).toBeNull();
    const grants = await grantFor(company, before.body, [handler, other]);
    const assigned = await as(admin, 'PUT', `/api/incident/${id}/`, {
      assignee_uuids: [handler.userId, other.userId],
      grants,
    });
    expect(assigned.status).toBe(200);
    // The admin holds no grant: they read through the company key, and see nobody else's.
    expect(assigned.body.keys.my_grant).toBeNull();

    const view = await as(handler, 'GET', `/api/incident/${id}/`);
    expect(view.status).toBe(200);
    expect(view.body.keys.my_grant).toEqual({
      key_id: handler.keyId,
      fingerprint: handler.fingerprint,
      wrapped_passphrase: grants[0]!.wrapped_passphrase,
    });
    const opened = await openIncidentWithGrant({
      ...view.body.keys,
      grant: view.body.keys.my_grant.wrapped_passphrase,
      person: handler.keys,
    });
    expect(opened.publicKey).toBe(view.body.keys.credential.public_key);
    // Handed to another person, it does not open.
    await expect(
      openIncidentWithGrant({
        ...view.body.keys,
        grant: view.body.keys.my_grant.wrapped_passphrase,
        person: other.keys,
      }),
    ).rejects.toThrow(DecryptionError);

    const list = await as(handler, 'GET', '/api/incident/');
    expect(list.body.results.map((row: { keys: { my_grant: unknown } }) => row.keys.my_grant)).toEqual([
      view.body.keys.my_grant,
    ]);
  });

  it('when a handler is not assigned, then they get no case and no wrapping of it from the case, the list or the search corpus', async () => {
    const company = await seedCompany(test$.deps);
    const { admin, handler, other } = await team(company);
    const id = await newCase(company);
    const view = await as(admin, 'GET', `/api/incident/${id}/`);
    await as(admin, 'PUT', `/api/incident/${id}/`, {
      assignee_uuids: [handler.userId],
      grants: await grantFor(company, view.body, [handler]),
    });
    expect((await as(other, 'GET', `/api/incident/${id}/`)).status).toBe(404);
    const list = await as(other, 'GET', '/api/incident/');
    expect(list.body.results).toEqual([]);
    const corpus = await as(other, 'GET', '/api/incident/search-corpus');
    expect(JSON.stringify(corpus.body)).not.toContain('wrapped_passphrase');
  });

  it('when a grant names someone not assigned, someone excluded or a key not the one compared, then 400 and nothing is stored', async () => {
    const company = await seedCompany(test$.deps);
    const { admin, handler, other } = await team(company);
    const id = await newCase(company);
    const view = await as(admin, 'GET', `/api/incident/${id}/`);
    const [grant] = await grantFor(company, view.body, [handler]);

    const unassigned = await as(admin, 'PUT', `/api/incident/${id}/`, {
      assignee_uuids: [other.userId],
      grants: [grant],
    });
    expect(unassigned.status).toBe(400);
    expect(unassigned.body.errors.grants).toEqual(['A grant is only for someone assigned to this case']);

    const excluded = await as(admin, 'PUT', `/api/incident/${id}/`, {
      excluded_user_uuids: [handler.userId],
      grants: [grant],
    });
    expect(excluded.status).toBe(400);
    expect(excluded.body.errors.grants).toEqual(['Someone excluded from this case cannot be granted access to it']);

    const staleKey = await as(admin, 'PUT', `/api/incident/${id}/`, {
      assignee_uuids: [handler.userId],
      grants: [{ ...grant, fingerprint: other.fingerprint }],
    });
    expect(staleKey.status).toBe(400);
    expect(staleKey.body.errors.grants).toEqual([
      "This person's keys are not the ones compared: reload the page and compare their fingerprint again",
    ]);
    const stranger = { ...grant, user_id: randomUUID() };
    const unknown = await as(admin, 'PUT', `/api/incident/${id}/`, {
      assignee_uuids: [handler.userId, stranger.user_id],
      grants: [stranger],
    });
    expect(unknown.status).toBe(400);

    // Nothing of those requests was applied: no assignment, no grant.
    const after = await as(admin, 'GET', `/api/incident/${id}/`);
    expect(after.body.assignees).toEqual([]);
    expect((await test$.deps.db.query('select 1 from incident.case_grant where incident_id = $1', [id])).rows).toEqual(
      [],
    );
    // A handler may not grant: only those who assign do.
    await as(admin, 'PUT', `/api/incident/${id}/`, { assignee_uuids: [handler.userId] });
    const byHandler = await as(handler, 'PUT', `/api/incident/${id}/`, { grants: [grant] });
    expect(byHandler.status).toBe(403);
  });

  it('when a handler is unassigned or excluded, then their grant is deleted at once and the event says so', async () => {
    const company = await seedCompany(test$.deps);
    const { admin, handler, other } = await team(company);
    const id = await newCase(company);
    const view = await as(admin, 'GET', `/api/incident/${id}/`);
    await as(admin, 'PUT', `/api/incident/${id}/`, {
      assignee_uuids: [handler.userId, other.userId],
      grants: await grantFor(company, view.body, [handler, other]),
    });
    const holders = async () =>
      (
        await test$.deps.db.query<{ user_id: string }>(
          'select user_id from incident.case_grant where incident_id = $1 order by user_id',
          [id],
        )
      ).rows.map((row) => row.user_id);
    expect(await holders()).toEqual([handler.userId, other.userId].sort());

    await as(admin, 'PUT', `/api/incident/${id}/`, { assignee_uuids: [other.userId] });
    expect(await holders()).toEqual([other.userId]);
    expect((await as(handler, 'GET', `/api/incident/${id}/`)).status).toBe(404);

    await as(admin, 'PUT', `/api/incident/${id}/`, { excluded_user_uuids: [other.userId] });
    expect(await holders()).toEqual([]);
    const events = await test$.deps.db.query<{
      name: string;
      payload: { removed_ids?: string[]; added_ids?: string[] };
    }>(
      `select name, payload from incident.outbox where payload->>'incident_id' = $1
        and name in ('incident.assigned', 'incident.exclusion.changed') order by position`,
      [id],
    );
    expect(events.rows.map((row) => row.name)).toEqual([
      'incident.assigned',
      'incident.assigned',
      'incident.exclusion.changed',
      'incident.assigned',
    ]);
  });

  it("when a person's keys are replaced, then what was wrapped to the old ones goes", async () => {
    const company = await seedCompany(test$.deps);
    const { admin, handler } = await team(company);
    const id = await newCase(company);
    const view = await as(admin, 'GET', `/api/incident/${id}/`);
    await as(admin, 'PUT', `/api/incident/${id}/`, {
      assignee_uuids: [handler.userId],
      grants: await grantFor(company, view.body, [handler]),
    });
    expect((await as(handler, 'GET', `/api/incident/${id}/`)).body.keys.my_grant).not.toBeNull();
    await announceKeys(handler);
    expect((await as(handler, 'GET', `/api/incident/${id}/`)).body.keys.my_grant).toBeNull();
  });

  it("when the discloser's browser wraps the report to its categories' default assignees, then each gets their grant, and a key of anyone else is left out", async () => {
    const company = await seedCompany(test$.deps);
    const { handler, other } = await team(company);
    await announce(test$.deps, {
      name: 'category.updated',
      company_id: company.companyId,
      payload: {
        category_id: company.categories.fraud,
        name: 'Fraud',
        parent_id: null,
        is_active: true,
        assignee_ids: [handler.userId],
      },
    });
    await waitFor(
      async () =>
        (
          await test$.deps.db.query('select 1 from incident.category where id = $1 and $2 = any(assignee_ids)', [
            company.categories.fraud,
            handler.userId,
          ])
        ).rows.length > 0,
      { what: 'the default assignee in the read model' },
    );
    // Another company's person, with a key of their own.
    const elsewhere = await seedCompany(test$.deps);
    const stranger = await announceKeys(await announceStaff(test$.deps, elsewhere, 'Sam Stranger', ['HANDLER']));

    const { publicKeys } = await createPersonKeys();
    const credentials = await createIncidentCredentials(company.publicKey, [
      { key_id: handler.keyId, public_key: handler.keys.publicKeys.public_key },
      // Olga is no default assignee of these categories; the stranger is of another company; one key is unknown.
      { key_id: other.keyId, public_key: other.keys.publicKeys.public_key },
      { key_id: stranger.keyId, public_key: stranger.keys.publicKeys.public_key },
      { key_id: randomUUID(), public_key: publicKeys.public_key },
    ]);
    const body = {
      ...(await reportFor(company)).body,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, { description: 'Wrapped at report time' }),
      grants: credentials.grants,
    };
    const id = (await fileReport(incident.baseUrl, body)).uuid;
    const holders = await test$.deps.db.query<{ user_id: string; granted_by: string | null }>(
      'select user_id, granted_by from incident.case_grant where incident_id = $1',
      [id],
    );
    expect(holders.rows).toEqual([{ user_id: handler.userId, granted_by: null }]);
    const view = await as(handler, 'GET', `/api/incident/${id}/`);
    const opened = await openIncidentWithGrant({
      ...view.body.keys,
      grant: view.body.keys.my_grant.wrapped_passphrase,
      person: handler.keys,
    });
    expect(opened.publicKey).toBe(credentials.payload.credential.public_key);
    expect((await as(other, 'GET', `/api/incident/${id}/`)).status).toBe(404);
  });

  it('when a report sends a malformed grant, then it is a 400 and nothing is stored', async () => {
    const company = await seedCompany(test$.deps);
    const report = await reportFor(company);
    const response = await postJson(`${incident.baseUrl}/api/incident/`, {
      ...report.body,
      grants: [{ key_id: 'not-a-key', wrapped_passphrase: 'not wrapped' }],
    });
    expect(response.status).toBe(400);
    const errors = ((await response.json()) as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(errors).sort()).toEqual(['grants.0.key_id', 'grants.0.wrapped_passphrase']);
  });
});
