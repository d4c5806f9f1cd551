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

  describe('cases by id', () => {
    test('when staff ask for cases by id (the audit log naming its cases by number), then only those come, and only if they may see them', async () => {
      const first = await report();
      const second = await report();
      await report();
      const token = await admin.token();
      expect(new Set(await idsOf(`incident=${first.id},${second.id}`, token))).toEqual(new Set([first.id, second.id]));
      const row = (await api('GET', `/api/incident/?incident=${first.id}`, token)).body.results[0];
      expect(row.display_report_number).toBe(first.number);
      // Not assigned to the handler: the id finds nothing for them.
      expect(await idsOf(`incident=${first.id}`, await handler.token())).toEqual([]);
      const bad = await api('GET', '/api/incident/?incident=nothing', token);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ 'incident.0': ['Invalid case id'] });
    });
  });

  describe('assignees', () => {
    test('when filtered by assignee or as unassigned, then only those cases come, each row naming its assignees', async () => {
      const hals = await report();
      const adas = await report();
      const nobodys = await report();
      const assign = async (id: string, people: string[]) =>
        expect((await api('PUT', `/api/incident/${id}/`, await admin.token(), { assignee_uuids: people })).status).toBe(
          200,
        );
      await assign(hals.id, [handler.userId]);
      await assign(adas.id, [admin.userId]);
      const token = await admin.token();
      const halsCases = await idsOf(`assignee=${handler.userId}`, token);
      expect(halsCases).toContain(hals.id);
      expect(halsCases).not.toContain(adas.id);
      expect(halsCases).not.toContain(nobodys.id);
      const either = await idsOf(`assignee=${handler.userId},${admin.userId}`, token);
      expect(either).toEqual(expect.arrayContaining([hals.id, adas.id]));
      expect(either).not.toContain(nobodys.id);
      const unassigned = await idsOf('unassigned=true', token);
      expect(unassigned).toContain(nobodys.id);
      expect(unassigned).not.toContain(hals.id);
      expect(await idsOf('unassigned=false', token)).not.toContain(nobodys.id);
      const row = (await api('GET', `/api/incident/?report_number=${hals.number}`, token)).body.results[0];
      expect(row.assignees).toEqual([{ uuid: handler.userId, full_name: 'Hal Handler' }]);
      // A handler filtering by someone else still sees only their own caseload.
      expect(await idsOf(`assignee=${admin.userId}`, await handler.token())).toEqual([]);
      const bad = await api('GET', '/api/incident/?assignee=someone', token);
      expect(bad.body.errors).toEqual({ 'assignee.0': ['Invalid user id'] });
    });
  });
  describe('next deadline sort', () => {
    test('when sorted by next_due_at, then the earliest running deadline comes first and cases without one come last', async () => {
      const later = await report();
      const soon = await report();
      const overdue = await report();
      const closed = await report();
      const dueIn = async (id: string, days: number) =>
        test$.deps.db.query(
          `update incident.incident set acknowledgement_due_at = now() + make_interval(days => $2) where id = $1`,
          [id, days],
        );
      await dueIn(later.id, 5);
      await dueIn(soon.id, 1);
      await dueIn(overdue.id, -1);
      // A closed case runs no clock (next_due_at is null): last either way.
      await test$.deps.db.query(`update incident.incident set status = 'CLOSED' where id = $1`, [closed.id]);
      const token = await admin.token();
      const mine = [later.id, soon.id, overdue.id, closed.id];
      const order = async (sort: string) =>
        (await idsOf(`sort=${sort}`, token)).filter((id: string) => mine.includes(id));
      expect(await order('next_due_at')).toEqual([overdue.id, soon.id, later.id, closed.id]);
      expect(await order('-next_due_at')).toEqual([later.id, soon.id, overdue.id, closed.id]);
    });
  });
});
