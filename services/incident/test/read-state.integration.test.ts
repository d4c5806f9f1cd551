import type { IncidentListItem } from '@whistle/contracts';
import { deriveDiscloserAuthToken } from '@whistle/crypto';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
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

/** Issue 23 item 2, the unread marker: each person's read state of each case, and the list's counts from it. */
describe.each(testStacks)('unread messages per person on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let admin: StaffMember;
  let reviewer: StaffMember;
  let handler: StaffMember;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    reviewer = await announceStaff(test$.deps, company, 'Rita Reviewer', ['REVIEWER']);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  const api = (method: string, path: string, token?: string, body?: unknown) =>
    call(incident.baseUrl, method, path, { token, body });

  /** A report nobody is assigned to (Bribery has no default assignee), with its discloser's session token. */
  async function report(): Promise<{ id: string; discloserToken: string }> {
    const filed = await reportFor(
      company,
      { description: 'Invoices without delivery' },
      {
        category_uuids: [company.categories.bribery],
      },
    );
    const created = await fileReport(incident.baseUrl, filed.body);
    const authToken = await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase);
    const opened = await getJson(
      retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id),
      authToken,
    );
    return { id: created.uuid, discloserToken: ((await opened.json()) as { token: string }).token };
  }

  const send = async (incidentId: string, token: string) =>
    expect(
      (await api('POST', '/api/incident/message/', token, { incident_uuid: incidentId, content: 'v1.AAAA' })).status,
    ).toBe(201);

  /** What the list says of each case (undefined: not in the person's list). */
  async function unreadOf(token: string, ...incidentIds: string[]): Promise<(number | undefined)[]> {
    const list = await api('GET', '/api/incident/?page_size=100', token);
    expect(list.status).toBe(200);
    const rows = list.body.results as IncidentListItem[];
    return incidentIds.map((id) => rows.find((row) => row.uuid === id)?.unread_messages);
  }

  const readThread = async (incidentId: string, token: string) =>
    (await api('GET', `/api/incident/${incidentId}/message`, token)).status;

  test('when the reporter writes, then the list counts their messages until the person reads the thread, for that person only', async () => {
    const talked = await report();
    const quiet = await report();
    await send(talked.id, talked.discloserToken);
    await send(talked.id, talked.discloserToken);
    // The team's own reply is no news to read.
    await send(talked.id, await admin.token());
    expect(await unreadOf(await admin.token(), talked.id, quiet.id)).toEqual([2, 0]);

    expect(await readThread(talked.id, await admin.token())).toBe(200);
    expect(await unreadOf(await admin.token(), talked.id, quiet.id)).toEqual([0, 0]);
    // Read state is per person: the reviewer has not read it.
    expect(await unreadOf(await reviewer.token(), talked.id)).toEqual([2]);

    // A message after the reading is unread again, and only that one.
    await send(talked.id, talked.discloserToken);
    expect(await unreadOf(await admin.token(), talked.id)).toEqual([1]);
    expect(await unreadOf(await reviewer.token(), talked.id)).toEqual([3]);
    // Reading again, with nothing new since, changes nothing; the reporter reading their own thread marks nothing.
    expect(await readThread(talked.id, await admin.token())).toBe(200);
    expect(await readThread(talked.id, await admin.token())).toBe(200);
    expect(await readThread(talked.id, talked.discloserToken)).toBe(200);
    expect(await unreadOf(await admin.token(), talked.id)).toEqual([0]);
    expect(await unreadOf(await reviewer.token(), talked.id)).toEqual([3]);

    // What the server keeps: who read up to when, no content.
    const { rows } = await test$.deps.db.query<Record<string, unknown>>(
      'select * from incident.case_read where incident_id = $1',
      [talked.id],
    );
    expect(rows).toEqual([
      { incident_id: talked.id, company_id: company.companyId, user_id: admin.userId, read_up_to: expect.any(Date) },
    ]);
  });

  test('when a handler may not see a case, then neither its count nor its thread reach them, and nothing is marked', async () => {
    const notTheirs = await report();
    const theirs = await report();
    await send(notTheirs.id, notTheirs.discloserToken);
    await send(theirs.id, theirs.discloserToken);
    expect(
      (await api('PUT', `/api/incident/${theirs.id}/`, await admin.token(), { assignee_uuids: [handler.userId] }))
        .status,
    ).toBe(200);

    expect(await unreadOf(await handler.token(), notTheirs.id, theirs.id)).toEqual([undefined, 1]);
    expect(await readThread(notTheirs.id, await handler.token())).toBe(404);
    const marked = await test$.deps.db.query(
      'select 1 from incident.case_read where user_id = $1 and incident_id = $2',
      [handler.userId, notTheirs.id],
    );
    expect(marked.rows).toEqual([]);
    // Once assigned, the message they could not read before is still unread for them.
    expect(
      (
        await api('PUT', `/api/incident/${notTheirs.id}/`, await admin.token(), {
          assignee_uuids: [handler.userId],
        })
      ).status,
    ).toBe(200);
    expect(await unreadOf(await handler.token(), notTheirs.id, theirs.id)).toEqual([1, 1]);
    expect(await readThread(theirs.id, await handler.token())).toBe(200);
    expect(await unreadOf(await handler.token(), notTheirs.id, theirs.id)).toEqual([1, 0]);
  });
});
