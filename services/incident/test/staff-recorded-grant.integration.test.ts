import {
  createIncidentCredentials,
  decryptReportFields,
  encryptReportFields,
  openIncidentWithGrant,
} from '@whistle/crypto';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import {
  announce,
  announceKeys,
  announceStaff,
  call,
  postJson,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type KeyedMember,
  type RunningIncident,
  type SeededCompany,
} from './support';

/**
 * Issue 26 item 2: a handler who holds no company key records a report and opens it afterwards, through the grant
 * their own page wrapped to their own current key (`recorder_grant`); nobody else gets a grant that way.
 */
describe.each(testStacks)('a recorder’s own grant on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let handler: KeyedMember;
  let admin: KeyedMember;
  let colleague: KeyedMember;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    handler = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']));
    admin = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']));
    colleague = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Olga Other', ['HANDLER']));
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  /** A record as the intake page makes it, its passphrase also wrapped to `to`, sent with what `extra` makes of it. */
  async function recordWrappedTo(to: KeyedMember, extra: (wrapped: string) => Record<string, unknown>) {
    const credentials = await createIncidentCredentials(company.publicKey, [
      { key_id: to.keyId, public_key: to.keys.publicKeys.public_key },
    ]);
    const { body } = await reportFor(company, {}, { report_channel: 'telephone' });
    return {
      credentials,
      body: {
        ...body,
        ...credentials.payload,
        fields: await encryptReportFields(credentials.incident.publicKey, { description: 'Told on the phone' }),
        ...extra(credentials.grants[0]!.wrapped_passphrase),
      },
    };
  }
  const recordAs = async (by: KeyedMember, body: unknown) =>
    call(incident.baseUrl, 'POST', '/api/incident/recorded', { token: await by.token(), body });
  const cases = async () =>
    Number(
      (
        await test$.deps.db.query<{ n: string }>('select count(*) as n from incident.incident where company_id = $1', [
          company.companyId,
        ])
      ).rows[0]!.n,
    );

  it('when a handler without the company key records a report with a grant to their own key, then they open it', async () => {
    const { body } = await recordWrappedTo(handler, (wrapped) => ({
      recorder_grant: { fingerprint: handler.fingerprint, wrapped_passphrase: wrapped },
    }));
    const answer = await recordAs(handler, body);
    expect(answer.status).toBe(201);
    const id = answer.body.uuid as string;

    const holders = await test$.deps.db.query<{ user_id: string; key_id: string }>(
      'select user_id, key_id from incident.case_grant where incident_id = $1',
      [id],
    );
    expect(holders.rows).toEqual([{ user_id: handler.userId, key_id: handler.keyId }]);
    const view = await call(incident.baseUrl, 'GET', `/api/incident/${id}`, { token: await handler.token() });
    expect(view.status).toBe(200);
    const handle = await openIncidentWithGrant({
      ...view.body.keys,
      grant: view.body.keys.my_grant.wrapped_passphrase,
      person: handler.keys,
    });
    expect(await decryptReportFields(handle, view.body.fields)).toEqual([
      { name: 'description', value: 'Told on the phone' },
    ]);
  });

  it('when the grant is to anyone else’s key or the recorder is not assigned the case, then 400 and nothing is stored', async () => {
    const before = await cases();
    // Wrapped to a colleague, named by the colleague's fingerprint, sent by the handler.
    const toColleague = await recordWrappedTo(colleague, (wrapped) => ({
      recorder_grant: { fingerprint: colleague.fingerprint, wrapped_passphrase: wrapped },
    }));
    const foreign = await recordAs(handler, toColleague.body);
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.errors)).toEqual(['recorder_grant']);
    // The colleague's key as a report-time grant: the colleague is no assignee of the record.
    const asGrant = await recordWrappedTo(colleague, (wrapped) => ({
      grants: [{ key_id: colleague.keyId, wrapped_passphrase: wrapped }],
    }));
    const unassigned = await recordAs(handler, asGrant.body);
    expect(unassigned.status).toBe(400);
    expect(Object.keys(unassigned.body.errors)).toEqual(['grants']);
    // An admin is not assigned what they record (they see every case): no grant of their own.
    const byAdmin = await recordWrappedTo(admin, (wrapped) => ({
      recorder_grant: { fingerprint: admin.fingerprint, wrapped_passphrase: wrapped },
    }));
    expect((await recordAs(admin, byAdmin.body)).status).toBe(400);
    expect(await cases()).toBe(before);
  });

  it('when a report-time grant is to a default assignee who was removed from the team, then 400 and nothing is stored', async () => {
    const leaver = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Lee Leaver', ['HANDLER']));
    await announce(test$.deps, {
      name: 'category.updated',
      company_id: company.companyId,
      payload: {
        category_id: company.categories.fraud,
        name: 'Fraud',
        parent_id: null,
        is_active: true,
        assignee_ids: [leaver.userId],
      },
    });
    const grantTo = () =>
      recordWrappedTo(leaver, (wrapped) => ({ grants: [{ key_id: leaver.keyId, wrapped_passphrase: wrapped }] }));
    // While on the team, the default assignee's grant goes with the record.
    await waitFor(async () => (await recordAs(handler, (await grantTo()).body)).status === 201, {
      what: 'the default assignee in the read model',
    });
    await announce(test$.deps, {
      name: 'user.deleted',
      company_id: company.companyId,
      payload: { user_id: leaver.userId, deleted_at: new Date().toISOString() },
    });
    await waitFor(
      async () =>
        (
          await test$.deps.db.query(
            'select 1 from incident.staff_member where user_id = $1 and removed_at is not null',
            [leaver.userId],
          )
        ).rows.length > 0,
      { what: 'the removal in the staff read model' },
    );
    const before = await cases();
    const refused = await recordAs(handler, (await grantTo()).body);
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['grants']);
    expect(await cases()).toBe(before);
  });

  it('when a reporter’s own report names a recorder grant, then 400', async () => {
    const { body } = await recordWrappedTo(handler, (wrapped) => ({
      report_channel: 'online',
      recorder_grant: { fingerprint: handler.fingerprint, wrapped_passphrase: wrapped },
    }));
    const response = await postJson(`${incident.baseUrl}/api/incident/`, body);
    expect(response.status).toBe(400);
    expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual(['recorder_grant']);
  });
});
