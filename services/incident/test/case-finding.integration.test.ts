import type { IncidentListItem } from '@whistle/contracts';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import {
  announceStaff,
  call,
  fileReport,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/** Issue 23 item 2, finding a case in the staff list: what the server does for it. */
describe.each(testStacks)('finding a case on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let admin: StaffMember;
  let handler: StaffMember;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  const api = (method: string, path: string, token?: string, body?: unknown) =>
    call(incident.baseUrl, method, path, { token, body });

  /** A report nobody is assigned to by default (Bribery has no default assignee). */
  async function report(overrides = {}): Promise<{ id: string; number: number }> {
    const filed = await reportFor(
      company,
      { description: 'Invoices without delivery' },
      {
        category_uuids: [company.categories.bribery],
        ...overrides,
      },
    );
    const created = await fileReport(incident.baseUrl, filed.body);
    const { rows } = await test$.deps.db.query<{ display_report_number: number }>(
      'select display_report_number from incident.incident where id = $1',
      [created.uuid],
    );
    return { id: created.uuid, number: rows[0]!.display_report_number };
  }

  const idsOf = async (query: string, token: string) => {
    const list = await api('GET', `/api/incident/?page_size=100&${query}`, token);
    expect(list.status).toBe(200);
    return list.body.results.map((row: IncidentListItem) => row.uuid);
  };

  describe('search by report number', () => {
    test('when staff search a number, then only that case comes, and only if they may see it', async () => {
      const wanted = await report();
      await report();
      expect(await idsOf(`report_number=${wanted.number}`, await admin.token())).toEqual([wanted.id]);
      const page = await api('GET', `/api/incident/?report_number=${wanted.number}`, await admin.token());
      expect({ count: page.body.count, count_capped: page.body.count_capped }).toEqual({
        count: 1,
        count_capped: false,
      });
      // Not assigned to the handler: the number finds nothing for them.
      expect(await idsOf(`report_number=${wanted.number}`, await handler.token())).toEqual([]);
      expect(await idsOf('report_number=999999', await admin.token())).toEqual([]);
    });

    test('when the number is not a positive whole number, then 400 names the parameter', async () => {
      for (const bad of ['abc', '0', '-3', '1.5', '99999999999']) {
        const answer = await api('GET', `/api/incident/?report_number=${bad}`, await admin.token());
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toEqual({ report_number: ['Invalid report number'] });
      }
    });
  });
});
