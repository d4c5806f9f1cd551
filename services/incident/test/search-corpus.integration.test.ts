import type { EventEnvelope, IncidentSearchCorpusRow } from '@whistle/contracts';
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
  staffToken,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/**
 * Issue 23 item 2, search by words: the corpus the browser decrypts and searches, every case the person may open
 * (as the list), keys and encrypted report fields; one audit event per download, never with the words.
 */
describe.each(testStacks)('the search corpus on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let admin: StaffMember;
  let otherAdmin: StaffMember;
  let handler: StaffMember;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'search-test-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'search-test-observer',
      events: ['incident.#'],
      handle: async (event) => void published.push(event),
    });
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    otherAdmin = await announceStaff(test$.deps, company, 'Oscar Other', ['ADMIN']);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  /** A report nobody is assigned to (Bribery has no default assignee). */
  async function report(description: string): Promise<string> {
    const filed = await reportFor(company, { description }, { category_uuids: [company.categories.bribery] });
    return (await fileReport(incident.baseUrl, filed.body)).uuid;
  }

  async function corpus(token?: string): Promise<{ status: number; total: number; rows: IncidentSearchCorpusRow[] }> {
    const response = await fetch(`${incident.baseUrl}/api/incident/search-corpus`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const text = await response.text();
    if (response.status !== 200) return { status: response.status, total: 0, rows: [] };
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const rows = text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as IncidentSearchCorpusRow);
    return { status: 200, total: Number(response.headers.get('x-total-count')), rows };
  }

  test('when staff download the corpus, then each case they may open comes with keys and fields that open in the browser, and the download is on record without content', async () => {
    const first = await report('Invoices from the quarry');
    const second = await report('Badges shared at the gate');
    const { status, total, rows } = await corpus(await admin.token());
    expect(status).toBe(200);
    expect(total).toBe(rows.length);
    expect(rows.map((row) => row.uuid)).toEqual(expect.arrayContaining([first, second]));
    const row = rows.find((each) => each.uuid === first)!;
    expect(Object.keys(row).sort()).toEqual(['display_report_number', 'fields', 'keys', 'uuid']);
    // What the browser does: open the case with the company key and read its bound fields.
    const handle = await openIncidentAsCompany({
      ...row.keys,
      company_encrypted_passphrase: row.keys.company_encrypted_passphrase!,
      companyPrivateKey: await company.privateKey(),
    });
    expect(await decryptReportFields(handle, row.fields)).toEqual([
      { name: 'description', value: 'Invoices from the quarry' },
    ]);

    const event = await waitFor(
      () =>
        published.find(
          (each) =>
            each.name === 'incident.searched' && each.actor?.type === 'STAFF' && each.actor.user_id === admin.userId,
        ),
      { what: 'incident.searched' },
    );
    expect(event.payload).toEqual({ count: total });
    expect(event.company_id).toBe(company.companyId);
  });

  test('when a person may not open a case, then the corpus leaves it out, as the list does', async () => {
    const assigned = await report('Fuel cards used at weekends');
    const notAssigned = await report('Fuel cards lent to a cousin');
    const excluded = await report('Fuel cards of the director');
    const admin$ = await admin.token();
    expect(
      (
        await call(incident.baseUrl, 'PUT', `/api/incident/${assigned}/`, {
          token: admin$,
          body: { assignee_uuids: [handler.userId] },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(incident.baseUrl, 'PUT', `/api/incident/${excluded}/`, {
          token: admin$,
          body: { excluded_user_uuids: [otherAdmin.userId] },
        })
      ).status,
    ).toBe(200);

    const handlers = await corpus(await handler.token());
    expect(handlers.rows.map((row) => row.uuid)).toEqual([assigned]);
    expect(handlers.total).toBe(1);
    const others = (await corpus(await otherAdmin.token())).rows.map((row) => row.uuid);
    expect(others).toEqual(expect.arrayContaining([assigned, notAssigned]));
    expect(others).not.toContain(excluded);
    await waitFor(
      () =>
        published.find(
          (each) =>
            each.name === 'incident.searched' &&
            each.actor?.type === 'STAFF' &&
            each.actor.user_id === handler.userId &&
            each.payload.count === 1,
        ),
      { what: "the handler's incident.searched" },
    );
  });

  test('when the caller is no staff member, then the corpus is refused: 401 without a staff token, 403 while MFA set-up is due', async () => {
    const filed = await reportFor(company, { description: 'Refused' });
    const created = await fileReport(incident.baseUrl, filed.body);
    const opened = await getJson(
      retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id),
      await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase),
    );
    const discloserToken = ((await opened.json()) as { token: string }).token;
    expect((await corpus()).status).toBe(401);
    expect((await corpus(discloserToken)).status).toBe(401);
    const enrolling = await staffToken({
      userId: admin.userId,
      companyId: company.companyId,
      roles: ['ADMIN'],
      mfaEnrollmentRequired: true,
    });
    expect((await corpus(enrolling)).status).toBe(403);
    // No parameters: a search's words sent by mistake are refused, not logged.
    const withWords = await fetch(`${incident.baseUrl}/api/incident/search-corpus?q=quarry`, {
      headers: { authorization: `Bearer ${await admin.token()}` },
    });
    expect(withWords.status).toBe(400);
  });
});
