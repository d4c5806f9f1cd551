import type { EventEnvelope } from '@whistle/contracts';
import { decryptReportFields, deriveDiscloserAuthToken, openIncidentAsCompany } from '@whistle/crypto';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import {
  announceStaff,
  call,
  fileReport,
  getJson,
  prepareProducer,
  reportFor,
  retrievalUrl,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/** Reports taken by staff (issue 26 item 2, directive art. 18): recorded, opened with the code, approved. */
describe.each(testStacks)('reports recorded by staff on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let other: SeededCompany;
  let admin: StaffMember;
  let handler: StaffMember;
  let reviewer: StaffMember;
  let otherHandler: StaffMember;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'recorded-test-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'recorded-test-observer',
      events: ['incident.#'],
      handle: async (event) => void published.push(event),
    });
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    other = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
    reviewer = await announceStaff(test$.deps, company, 'Rita Reviewer', ['REVIEWER']);
    otherHandler = await announceStaff(test$.deps, other, 'Olga Other', ['HANDLER']);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  const api = (method: string, path: string, token?: string, body?: unknown) =>
    call(incident.baseUrl, method, path, { token, body });

  async function record(by: StaffMember, overrides: Record<string, unknown> = { report_channel: 'telephone' }) {
    const filed = await reportFor(company, { description: 'Told on the phone: invoices without delivery' }, overrides);
    return { filed, answer: await api('POST', '/api/incident/recorded', await by.token(), filed.body) };
  }

  async function open(retrievalId: string, discloserPassphrase: string) {
    const authToken = await deriveDiscloserAuthToken(discloserPassphrase);
    const opened = await getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, retrievalId), authToken);
    expect(opened.status).toBe(200);
    return (await opened.json()) as { token: string; recorded_by_staff: boolean; record_approved_at: string | null };
  }

  it('stores a handler’s record, opens it with the code, takes the reporter’s approval once', async () => {
    const { filed, answer } = await record(handler);
    expect(answer.status).toBe(201);
    const id = answer.body.uuid as string;

    const stored = await test$.deps.db.query<{ recorded_by: string; report_channel: string }>(
      'select recorded_by, report_channel from incident.incident where id = $1',
      [id],
    );
    expect(stored.rows[0]).toEqual({ recorded_by: handler.userId, report_channel: 'telephone' });

    // The handler who took it keeps it: assigned to them, besides its labels' assignees.
    const own = await api('GET', `/api/incident/${id}`, await handler.token());
    expect(own.status).toBe(200);
    expect(own.body.assignees).toEqual(expect.arrayContaining([{ uuid: handler.userId, full_name: 'Hal Handler' }]));
    const view = await api('GET', `/api/incident/${id}`, await admin.token());
    expect(view.status).toBe(200);
    expect(view.body.recorded_by).toEqual({ uuid: handler.userId, full_name: 'Hal Handler' });
    expect(view.body.record_approved_at).toBeNull();

    const opened = await open(answer.body.retrieval_id, filed.credentials.discloserPassphrase);
    expect(opened.recorded_by_staff).toBe(true);
    expect(opened.record_approved_at).toBeNull();
    // Encrypted as a reporter's report: the company key opens it as any case.
    const handle = await openIncidentAsCompany({ ...view.body.keys, companyPrivateKey: await company.privateKey() });
    expect(await decryptReportFields(handle, view.body.fields)).toEqual([
      { name: 'description', value: 'Told on the phone: invoices without delivery' },
    ]);

    const approved = await api('POST', `/api/incident/${id}/record-approval`, opened.token);
    expect(approved.status).toBe(200);
    const again = await api('POST', `/api/incident/${id}/record-approval`, opened.token);
    expect(again.status).toBe(200);
    expect(again.body.record_approved_at).toBe(approved.body.record_approved_at);

    const after = await api('GET', `/api/incident/${id}`, await admin.token());
    expect(after.body.record_approved_at).toBe(approved.body.record_approved_at);
    expect((await open(answer.body.retrieval_id, filed.credentials.discloserPassphrase)).record_approved_at).toBe(
      approved.body.record_approved_at,
    );

    await waitFor(
      async () => published.some((e) => e.name === 'incident.record_approved' && e.payload.incident_id === id),
      {
        what: 'the approval event',
      },
    );
    const recorded = published.filter((e) => e.name === 'incident.recorded' && e.payload.incident_id === id);
    expect(recorded).toEqual([
      expect.objectContaining({
        actor: { type: 'STAFF', user_id: handler.userId },
        payload: { incident_id: id, report_channel: 'telephone' },
      }),
    ]);
    // Approving again records nothing more.
    expect(published.filter((e) => e.name === 'incident.record_approved' && e.payload.incident_id === id)).toHaveLength(
      1,
    );
  });

  it('takes an admin’s record of a meeting (internal)', async () => {
    const { answer } = await record(admin, { report_channel: 'internal' });
    expect(answer.status).toBe(201);
  });

  it('refuses a reviewer, another company’s handler, no token and a discloser session', async () => {
    expect((await record(reviewer)).answer.status).toBe(403);
    const foreign = await record(otherHandler);
    expect(foreign.answer.status).toBe(400);
    expect(foreign.answer.body.errors).toHaveProperty('url_identifier');

    const filed = await reportFor(company, { description: 'x' }, { report_channel: 'telephone' });
    expect((await api('POST', '/api/incident/recorded', undefined, filed.body)).status).toBe(401);
    const own = await reportFor(company);
    const created = await fileReport(incident.baseUrl, own.body);
    const session = await open(created.retrieval_id, own.credentials.discloserPassphrase);
    expect((await api('POST', '/api/incident/recorded', session.token, filed.body)).status).toBe(401);
  });

  it('refuses the online channel (and none, which means online) for a staff record', async () => {
    const online = await record(handler, { report_channel: 'online' });
    expect(online.answer.status).toBe(400);
    expect(online.answer.body.errors).toHaveProperty('report_channel');
    expect((await record(handler, {})).answer.status).toBe(400);
  });

  it('takes approval only with that case’s reporter session, and only for a staff record', async () => {
    const { filed, answer } = await record(handler);
    const id = answer.body.uuid as string;
    // Staff cannot approve for the reporter.
    expect((await api('POST', `/api/incident/${id}/record-approval`, await admin.token())).status).toBe(403);
    expect((await api('POST', `/api/incident/${id}/record-approval`)).status).toBe(401);

    // Another case's reporter session is refused.
    const own = await reportFor(company);
    const created = await fileReport(incident.baseUrl, own.body);
    const otherSession = await open(created.retrieval_id, own.credentials.discloserPassphrase);
    expect((await api('POST', `/api/incident/${id}/record-approval`, otherSession.token)).status).toBe(403);
    // A report the reporter wrote themselves has no record to approve.
    expect((await api('POST', `/api/incident/${created.uuid}/record-approval`, otherSession.token)).status).toBe(409);

    const stored = await test$.deps.db.query('select record_approved_at from incident.incident where id = $1', [id]);
    expect(stored.rows[0]).toEqual({ record_approved_at: null });
    const session = await open(answer.body.retrieval_id, filed.credentials.discloserPassphrase);
    expect((await api('POST', `/api/incident/${id}/record-approval`, session.token)).status).toBe(200);
  });
});
