import { SAVED_VIEWS_PER_PERSON, type SavedView } from '@whistle/contracts';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import {
  announceStaff,
  call,
  prepareProducer,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/** Issue 23 item 2, saved views: each person's named filter sets for the case list, theirs alone. */
describe.each(testStacks)('saved views of the case list on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let admin: StaffMember;
  let handler: StaffMember;
  let stranger: StaffMember;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
    const other = await seedCompany(test$.deps);
    stranger = await announceStaff(test$.deps, other, 'Olga Other', ['ADMIN']);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  const api = async (method: string, path: string, person: StaffMember, body?: unknown) =>
    call(incident.baseUrl, method, path, { token: await person.token(), body });
  const viewsOf = async (person: StaffMember): Promise<SavedView[]> => {
    const answer = await api('GET', '/api/incident/saved-view/', person);
    expect(answer.status).toBe(200);
    return answer.body as SavedView[];
  };

  test('when a person saves filters under a name, then they list it as saved, and nobody else sees or deletes it', async () => {
    const filters = {
      status: ['NEW', 'ACKNOWLEDGED'],
      assignee: [handler.userId],
      overdue: true,
      report_number: 12,
      sort: 'next_due_at',
      page_size: 50,
    };
    const saved = await api('POST', '/api/incident/saved-view/', admin, { name: '  Overdue, mine  ', filters });
    expect(saved.status).toBe(201);
    expect(saved.body).toEqual({
      uuid: expect.any(String),
      name: 'Overdue, mine',
      filters,
      created: expect.any(String),
    });
    const second = await api('POST', '/api/incident/saved-view', admin, {
      name: 'all new',
      filters: { status: ['NEW'] },
    });
    expect(second.status).toBe(201);

    // By name, whatever the case.
    expect((await viewsOf(admin)).map((view) => view.name)).toEqual(['all new', 'Overdue, mine']);
    expect(await viewsOf(handler)).toEqual([]);
    expect(await viewsOf(stranger)).toEqual([]);

    // Another person of the company, or of another company, cannot delete it: it is unknown to them.
    const path = `/api/incident/saved-view/${saved.body.uuid}`;
    expect((await api('DELETE', path, handler)).status).toBe(404);
    expect((await api('DELETE', path, stranger)).status).toBe(404);
    expect((await viewsOf(admin)).map((view) => view.uuid)).toContain(saved.body.uuid);

    expect((await api('DELETE', path, admin)).status).toBe(204);
    expect((await api('DELETE', path, admin)).status).toBe(404);
    expect((await viewsOf(admin)).map((view) => view.name)).toEqual(['all new']);
    expect((await api('DELETE', '/api/incident/saved-view/not-a-uuid', admin)).status).toBe(404);

    // What the server keeps: whose view, its name and filters; no content.
    const { rows } = await test$.deps.db.query<Record<string, unknown>>(
      'select * from incident.saved_view where id = $1',
      [second.body.uuid],
    );
    expect(rows).toEqual([
      {
        id: second.body.uuid,
        company_id: company.companyId,
        user_id: admin.userId,
        name: 'all new',
        filters: { status: ['NEW'] },
        created_at: expect.any(Date),
      },
    ]);
  });

  test('when a view is not what the list takes, then 400 names the field and says why', async () => {
    const refused = async (body: unknown) => {
      const answer = await api('POST', '/api/incident/saved-view/', handler, body);
      expect(answer.status).toBe(400);
      return answer.body.errors as Record<string, string[]>;
    };
    expect(await refused({})).toEqual({ name: ['This field is required'], filters: ['This field is required'] });
    expect(await refused({ name: '   ', filters: {} })).toEqual({ name: ['This field is required'] });
    expect(await refused({ name: 'x'.repeat(81), filters: {} })).toEqual({
      name: ['Ensure this field has no more than 80 characters'],
    });
    expect(await refused({ name: 'Notes', filters: { description: 'money' } })).toEqual({
      filters: ['Unknown filter: description'],
    });
    expect(await refused({ name: 'Bad', filters: { status: ['LOST'], assignee: ['nobody'], sort: 'name' } })).toEqual({
      'filters.status.0': [expect.stringMatching(/status/i)],
      'filters.assignee.0': ['Invalid user id'],
      'filters.sort': ['Unknown sort'],
    });
    expect(await refused({ name: 'Many', filters: { category: Array(51).fill(company.categories.fraud) } })).toEqual({
      'filters.category': ['Ensure this list has no more than 50 items'],
    });
    expect(await refused({ name: 'Big', filters: { page_size: 500, overdue: 'yes' } })).toEqual({
      'filters.page_size': ['Page size is at most 100'],
      'filters.overdue': ['Expected true or false'],
    });
    expect(await viewsOf(handler)).toEqual([]);

    expect((await api('POST', '/api/incident/saved-view/', handler, { name: 'Mine', filters: {} })).status).toBe(201);
    expect(await refused({ name: 'Mine', filters: { overdue: true } })).toEqual({
      name: ['You already have a saved view of this name'],
    });
    // Another person may use the same name.
    expect((await api('POST', '/api/incident/saved-view/', admin, { name: 'Mine', filters: {} })).status).toBe(201);
  });

  test(`when a person keeps ${SAVED_VIEWS_PER_PERSON} views, then another is refused until they delete one`, async () => {
    const person = await announceStaff(test$.deps, company, 'Rita Reviewer', ['REVIEWER']);
    for (let index = 0; index < SAVED_VIEWS_PER_PERSON; index += 1)
      expect(
        (await api('POST', '/api/incident/saved-view/', person, { name: `View ${index}`, filters: {} })).status,
      ).toBe(201);
    const over = await api('POST', '/api/incident/saved-view/', person, { name: 'One more', filters: {} });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual({ name: ['You can keep at most 50 saved views; delete one first'] });
    // The limit is the person's: a colleague still saves.
    expect((await api('POST', '/api/incident/saved-view/', admin, { name: 'Colleague', filters: {} })).status).toBe(
      201,
    );

    const views = await viewsOf(person);
    expect(views).toHaveLength(SAVED_VIEWS_PER_PERSON);
    expect((await api('DELETE', `/api/incident/saved-view/${views[0]!.uuid}`, person)).status).toBe(204);
    expect((await api('POST', '/api/incident/saved-view/', person, { name: 'One more', filters: {} })).status).toBe(
      201,
    );
  });

  test('when the call carries no staff token, then 401', async () => {
    expect((await call(incident.baseUrl, 'GET', '/api/incident/saved-view/')).status).toBe(401);
    expect(
      (await call(incident.baseUrl, 'POST', '/api/incident/saved-view/', { body: { name: 'x', filters: {} } })).status,
    ).toBe(401);
  });
});
