/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { createRecordingMailer, type RecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { invitedMember, memberPassword, passwordLinkTokenIn, signedInAdmin } from './staff-client';
import { startAuth, type RunningAuth } from './support';

/**
 * Token times are whole seconds, and a token issued in the second of a role change still counts as issued
 * after it (as after a password change): tests that expect an old token refused let a second pass first.
 */
const tokensAgeOneSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe.each(testStacks)('company settings, reporting labels and locations on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  let mailer: RecordingMailer;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-settings-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-settings-observer',
      events: ['#'],
      handle: async (event) => void published.push(event),
    });
    mailer = createRecordingMailer();
    auth = await startAuth({ ...test$.deps, mailer });
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  /** A company with its admin's token, its id, and members with the given roles signed in. */
  async function company() {
    const co = await signedInAdmin(auth);
    const own = await co.admin('GET', '/api/account/company/');
    const member = async (role: 'REVIEWER' | 'HANDLER') => {
      const { userId, token } = await invitedMember(auth, co, { roles: [role] });
      return { id: userId, token };
    };
    return { ...co, companyId: own.body.uuid as string, urlIdentifier: own.body.url_identifier as string, member };
  }

  const eventsOf = (companyId: string, name: string) =>
    published.filter((event) => event.company_id === companyId && event.name === name);

  test('when an admin changes name and country, deadline and one notification switch, then each is kept and company.updated carries the whole state', async () => {
    const co = await company();
    const renamed = await co.admin('PUT', '/api/account/company', { name: '  Initech  ', country: 'FR' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Initech', country: 'FR', resolution_deadline_days: 14 });
    expect((await co.admin('PUT', '/api/account/company', { settings: { resolution_deadline_days: 30 } })).status).toBe(
      200,
    );
    const switched = await co.admin('PUT', '/api/account/company', {
      settings: { notifications: { deadlines: false } },
    });
    expect(switched.body).toEqual({
      name: 'Initech',
      country: 'FR',
      resolution_deadline_days: 30,
      notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: false },
    });

    const own = await co.admin('GET', '/api/account/company/');
    expect(own.body).toMatchObject({ name: 'Initech', country: 'FR', settings: { resolution_deadline_days: 30 } });
    expect(own.body.settings.notifications.deadlines).toBe(false);
    const publicView = await fetch(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`);
    expect(((await publicView.json()) as { name: string }).name).toBe('Initech');
    await waitFor(async () => eventsOf(co.companyId, 'company.updated').length === 3, { what: 'company.updated x3' });
    expect(eventsOf(co.companyId, 'company.updated').at(-1)?.payload).toEqual(switched.body);
  });

  test('when a company update is incomplete or invalid, then 400 names the field and nothing changes', async () => {
    const co = await company();
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{ name: 'Only a name' }, { country: ['This field is required'] }],
      [{ country: 'FR' }, { name: ['This field is required'] }],
      [{ name: '   ', country: 'FR' }, { name: ['This field is required'] }],
      [{ name: 'Initech', country: 'XX' }, { country: ['Unknown country'] }],
      [{}, { name: ['This field is required'] }],
      [
        { settings: { resolution_deadline_days: 1.5 } },
        { 'settings.resolution_deadline_days': ['A whole number of days is required'] },
      ],
      [
        { settings: { resolution_deadline_days: -1 } },
        { 'settings.resolution_deadline_days': ['Ensure this value is greater than or equal to 0'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await co.admin('PUT', '/api/account/company', body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body.errors).toMatchObject(errors);
    }
    const unknownSwitch = await co.admin('PUT', '/api/account/company', {
      settings: { notifications: { marketing: true } },
    });
    expect(unknownSwitch.status).toBe(400);
    expect((await co.admin('GET', '/api/account/company/')).body).toMatchObject({
      name: 'Globex',
      country: 'DE',
      settings: { resolution_deadline_days: 14 },
    });
  });

  test('when an admin adds a label with sub-categories and an assignee, edits, swaps and removes sub-categories, then the company, the public view and the events follow', async () => {
    const co = await company();
    const reviewer = await co.member('REVIEWER');
    const created = await co.admin('POST', '/api/account/company/category/', {
      name: 'Supply chain',
      management_categories: [{ name: 'Child labour' }, { name: 'Sanctions' }],
      user_profiles: [reviewer.id],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Supply chain',
      parent_uuid: null,
      is_active: true,
      user_profiles: [reviewer.id],
      management_categories: [
        { name: 'Child labour', parent_uuid: created.body.uuid, is_active: true },
        { name: 'Sanctions', parent_uuid: created.body.uuid, is_active: true },
      ],
    });
    const [childLabour, sanctions] = created.body.management_categories as Array<{ uuid: string; name: string }>;
    await waitFor(async () => eventsOf(co.companyId, 'category.created').length === 3, { what: 'category.created x3' });
    expect(eventsOf(co.companyId, 'category.created')[0]?.payload).toEqual({
      category_id: created.body.uuid,
      name: 'Supply chain',
      parent_id: null,
      is_active: true,
      assignee_ids: [reviewer.id],
    });

    // Rename the label, swap the two sub-categories' names, add one; then drop one.
    const edited = await co.admin('PUT', `/api/account/company/category/${created.body.uuid}`, {
      name: 'Suppliers',
      management_categories: [
        { uuid: childLabour!.uuid, name: 'Sanctions' },
        { uuid: sanctions!.uuid, name: 'Child labour' },
        { name: 'Forced labour' },
      ],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.name).toBe('Suppliers');
    expect((edited.body.management_categories as Array<{ name: string }>).map((child) => child.name).sort()).toEqual([
      'Child labour',
      'Forced labour',
      'Sanctions',
    ]);
    const trimmed = await co.admin('PUT', `/api/account/company/category/${created.body.uuid}`, {
      name: 'Suppliers',
      management_categories: [{ uuid: childLabour!.uuid, name: 'Sanctions' }],
    });
    expect(trimmed.body.management_categories).toEqual([
      { uuid: childLabour!.uuid, name: 'Sanctions', parent_uuid: created.body.uuid, is_active: true },
    ]);
    const unassigned = await co.admin('PUT', `/api/account/company/category/${created.body.uuid}`, {
      user_profiles: [],
    });
    expect(unassigned.body.user_profiles).toEqual([]);

    const own = await co.admin('GET', '/api/account/company/');
    const mine = (own.body.categories as Array<{ uuid: string; parent_uuid: string | null }>).filter(
      (category) => category.uuid === created.body.uuid || category.parent_uuid === created.body.uuid,
    );
    expect(mine.map((category) => category.uuid).sort()).toEqual([created.body.uuid, childLabour!.uuid].sort());
    const publicView = (await (await fetch(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`)).json()) as {
      categories: Array<{ name: string }>;
    };
    expect(publicView.categories.map((category) => category.name)).toEqual(
      expect.arrayContaining(['Suppliers', 'Sanctions']),
    );
    await waitFor(async () => eventsOf(co.companyId, 'category.deleted').length === 2, {
      what: 'two sub-categories deleted',
    });
  });

  test('when a name is taken, an assignee is of another company or a sub-category gets sub-categories, then 400 names the field', async () => {
    const co = await company();
    const other = await company();
    const existing = (await co.admin('GET', '/api/account/company/')).body.categories as Array<{
      uuid: string;
      name: string;
      parent_uuid: string | null;
    }>;
    const top = existing.find((category) => category.parent_uuid === null)!;
    const sub = existing.find((category) => category.parent_uuid !== null)!;
    const duplicate = await co.admin('POST', '/api/account/company/category/', {
      name: top.name,
      management_categories: [],
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors).toEqual({ name: ['A reporting label with this name already exists'] });
    const otherAdmin = (await other.admin('GET', '/api/account/company/profile/')).body.uuid as string;
    const foreign = await co.admin('POST', '/api/account/company/category/', {
      name: 'Foreign assignee',
      management_categories: [],
      user_profiles: [otherAdmin],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual({ user_profiles: ['Unknown user'] });
    const missing = await co.admin('POST', '/api/account/company/category/', { name: 'No list' });
    expect(missing.body.errors).toEqual({ management_categories: ['This field is required'] });
    const nested = await co.admin('PUT', `/api/account/company/category/${sub.uuid}`, {
      name: sub.name,
      management_categories: [{ name: 'Too deep' }],
    });
    expect(nested.body.errors).toEqual({ management_categories: ['A sub-category cannot have sub-categories'] });
    // Nothing of the refused calls was kept.
    const after = (await co.admin('GET', '/api/account/company/')).body.categories as unknown[];
    expect(after).toHaveLength(existing.length);
  });

  test('when a label or location carried by a case is deleted, then it is deactivated (kept for its cases) and hidden from disclosers; unused ones are deleted', async () => {
    const co = await company();
    const own = (await co.admin('GET', '/api/account/company/')).body as {
      categories: Array<{ uuid: string; parent_uuid: string | null }>;
      locations: Array<{ uuid: string }>;
    };
    const used = own.categories.find((category) => category.parent_uuid === null)!;
    const location = (await co.admin('POST', '/api/account/company/location/', { name: 'Lyon plant' })).body as {
      uuid: string;
    };
    await test$.deps.bus.publish({
      id: randomUUID(),
      name: 'incident.created',
      version: 1,
      company_id: co.companyId,
      occurred_at: new Date().toISOString(),
      actor: { type: 'DISCLOSER' },
      payload: {
        incident_id: randomUUID(),
        display_report_number: 1,
        status: 'NEW',
        report_channel: 'online',
        report_anonymously: true,
        category_ids: [used.uuid],
        location_id: location.uuid,
      },
    });
    await waitFor(
      async () =>
        (await test$.deps.db.query('select 1 from auth.label_in_use where label_id = $1', [location.uuid])).rows
          .length > 0,
      { what: 'the labels in use recorded' },
    );

    expect((await co.admin('DELETE', `/api/account/company/category/${used.uuid}`)).body).toEqual({
      outcome: 'deactivated',
    });
    expect((await co.admin('DELETE', `/api/account/company/location/${location.uuid}`)).body).toEqual({
      outcome: 'deactivated',
    });
    const after = (await co.admin('GET', '/api/account/company/')).body as {
      categories: Array<{ uuid: string; parent_uuid: string | null; is_active: boolean }>;
      locations: Array<{ uuid: string; is_active: boolean }>;
    };
    expect(
      after.categories
        .filter((category) => category.uuid === used.uuid || category.parent_uuid === used.uuid)
        .every((category) => !category.is_active),
    ).toBe(true);
    expect(after.locations.find((candidate) => candidate.uuid === location.uuid)?.is_active).toBe(false);
    const publicView = (await (await fetch(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`)).json()) as {
      categories: Array<{ uuid: string; parent_uuid: string | null }>;
      locations: Array<{ uuid: string }>;
    };
    expect(
      publicView.categories.some((category) => category.uuid === used.uuid || category.parent_uuid === used.uuid),
    ).toBe(false);
    expect(publicView.locations.some((candidate) => candidate.uuid === location.uuid)).toBe(false);

    const unused = after.categories.find((category) => category.parent_uuid === null && category.is_active)!;
    expect((await co.admin('DELETE', `/api/account/company/category/${unused.uuid}`)).body).toEqual({
      outcome: 'deleted',
    });
    const headOffice = after.locations.find((candidate) => candidate.uuid !== location.uuid)!;
    expect((await co.admin('DELETE', `/api/account/company/location/${headOffice.uuid}`)).body).toEqual({
      outcome: 'deleted',
    });
    const final = (await co.admin('GET', '/api/account/company/')).body as typeof after;
    expect(
      final.categories.some((category) => category.uuid === unused.uuid || category.parent_uuid === unused.uuid),
    ).toBe(false);
    expect(final.locations.map((candidate) => candidate.uuid)).toEqual([location.uuid]);
    await waitFor(async () => eventsOf(co.companyId, 'location.deleted').length === 1, { what: 'location.deleted' });
    expect(eventsOf(co.companyId, 'location.updated').map((event) => event.payload)).toEqual([
      { location_id: location.uuid, name: 'Lyon plant', is_active: false },
    ]);
  });

  test('when locations are added, renamed and named twice, then the answers and field errors say so', async () => {
    const co = await company();
    const added = await co.admin('POST', '/api/account/company/location/', { name: ' Warehouse ' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'Warehouse', is_active: true });
    const renamed = await co.admin('PUT', `/api/account/company/location/${added.body.uuid}`, { name: 'Depot' });
    expect(renamed.body).toEqual({ uuid: added.body.uuid, name: 'Depot', is_active: true });
    const twice = await co.admin('POST', '/api/account/company/location/', { name: 'Depot' });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual({ name: ['A location with this name already exists'] });
    const empty = await co.admin('POST', '/api/account/company/location/', { name: '' });
    expect(empty.body.errors).toEqual({ name: ['This field is required'] });
  });

  test('when a reviewer, a handler, a stranger or another company calls the admin settings, then 403, 401 or 404 and nothing changes', async () => {
    const co = await company();
    const other = await company();
    const reviewer = await co.member('REVIEWER');
    const handler = await co.member('HANDLER');
    const own = (await co.admin('GET', '/api/account/company/')).body as {
      categories: Array<{ uuid: string }>;
      locations: Array<{ uuid: string }>;
    };
    const category = own.categories[0]!.uuid;
    const location = own.locations[0]!.uuid;
    const calls: Array<[string, string, unknown]> = [
      ['PUT', '/api/account/company', { name: 'Taken over', country: 'FR' }],
      ['POST', '/api/account/company/category/', { name: 'New', management_categories: [] }],
      ['PUT', `/api/account/company/category/${category}`, { is_active: false }],
      ['DELETE', `/api/account/company/category/${category}`, undefined],
      ['POST', '/api/account/company/location/', { name: 'New' }],
      ['PUT', `/api/account/company/location/${location}`, { name: 'Renamed' }],
      ['DELETE', `/api/account/company/location/${location}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      for (const token of [reviewer.token, handler.token])
        expect([method, path, (await co.client.call(method, path, { bearer: token, body })).status]).toEqual([
          method,
          path,
          403,
        ]);
      expect((await co.client.call(method, path, { body })).status).toBe(401);
    }
    // Another company's admin reaches nothing of this company's labels.
    for (const [method, path, body] of calls.filter(([, path]) => /[0-9a-f-]{36}$/.test(path)))
      expect([method, path, (await other.admin(method, path, body)).status]).toEqual([method, path, 404]);
    expect((await co.admin('PUT', '/api/account/company/category/not-a-uuid', { is_active: false })).status).toBe(404);

    const after = (await co.admin('GET', '/api/account/company/')).body as typeof own & { name: string };
    expect(after.name).toBe('Globex');
    expect(after.categories).toEqual(own.categories);
    expect(after.locations).toEqual(own.locations);
  });

  test("when an admin changes a member's roles, then the team lists them, user.updated says so and the member's old token is refused", async () => {
    const co = await company();
    const reviewer = await co.member('REVIEWER');
    await tokensAgeOneSecond();
    const changed = await co.admin('PUT', '/api/account/company/user_profile/', {
      uuid: reviewer.id,
      roles: ['HANDLER', 'HANDLER'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ uuid: reviewer.id, roles: ['HANDLER'], invitation_pending: false });
    expect(changed.body.last_sign_in_at).toEqual(expect.any(String));
    expect((await co.client.call('GET', '/api/account/company/profile/', { bearer: reviewer.token })).status).toBe(401);
    const team = (await co.admin('GET', '/api/account/company/')).body.user_profiles as Array<{
      uuid: string;
      roles: string[];
    }>;
    expect(team.find((member) => member.uuid === reviewer.id)?.roles).toEqual(['HANDLER']);
    await waitFor(async () => eventsOf(co.companyId, 'user.updated').length === 1, { what: 'user.updated' });
    expect(eventsOf(co.companyId, 'user.updated')[0]?.payload).toMatchObject({
      user_id: reviewer.id,
      roles: ['HANDLER'],
      language: 'en',
      notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true },
    });
  });

  test('when a member sets their own mail preferences or name, then they are kept, validated and announced in user.updated', async () => {
    const co = await company();
    const handler = await co.member('HANDLER');
    const as = (method: string, path: string, body?: unknown) =>
      co.client.call(method, path, { bearer: handler.token, body });
    expect((await as('GET', '/api/account/profile/notifications')).body).toEqual({
      language: 'en',
      notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true },
    });
    const wanted = {
      language: 'fr',
      notifications: { new_incidents: false, assigned_to_an_incident: true, incident_updates: true, deadlines: false },
    };
    const refused = await as('PUT', '/api/account/profile/notifications', { ...wanted, language: 'ar' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ language: ['Unknown language'] });
    const saved = await as('PUT', '/api/account/profile/notifications', wanted);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(wanted);
    expect((await as('GET', '/api/account/profile/notifications')).body).toEqual(wanted);
    await waitFor(async () => eventsOf(co.companyId, 'user.updated').length === 1, { what: 'user.updated' });
    expect(eventsOf(co.companyId, 'user.updated')[0]?.payload).toMatchObject({ user_id: handler.id, ...wanted });

    expect((await as('PUT', '/api/account/profile', { full_name: 'Henri Dupont' })).status).toBe(200);
    await waitFor(async () => eventsOf(co.companyId, 'user.updated').length === 2, { what: 'the name change' });
    expect(eventsOf(co.companyId, 'user.updated')[1]?.payload).toMatchObject({
      user_id: handler.id,
      full_name: 'Henri Dupont',
      ...wanted,
    });
  });

  test('when the last admin would lose ADMIN, then 400 and nothing changes; with a second admin, the first may be demoted', async () => {
    const co = await company();
    const adminId = (await co.admin('GET', '/api/account/company/profile/')).body.uuid as string;
    const alone = await co.admin('PUT', '/api/account/company/user_profile/', { uuid: adminId, roles: ['REVIEWER'] });
    expect(alone.status).toBe(400);
    expect(alone.body.errors).toEqual({ roles: ['A company needs at least one admin'] });
    expect((await co.admin('GET', '/api/account/company/profile/')).status).toBe(200);

    const second = await co.member('REVIEWER');
    await co.admin('PUT', '/api/account/company/user_profile/', { uuid: second.id, roles: ['ADMIN'] });
    await tokensAgeOneSecond();
    const demoted = await co.admin('PUT', '/api/account/company/user_profile/', { uuid: adminId, roles: ['REVIEWER'] });
    expect(demoted.status).toBe(200);
    // The first admin's own token carried ADMIN: it is refused now.
    expect((await co.admin('GET', '/api/account/company/profile/')).status).toBe(401);
  });

  test('when an invitation is sent again, then only the new link works; a member with a password gets 400', async () => {
    const co = await company();
    const email = `late-${randomUUID().slice(0, 6)}@${co.domain}`;
    const invited = await co.admin('POST', '/api/account/company/user_profile/', {
      email,
      full_name: 'Late Comer',
      roles: ['HANDLER'],
    });
    const linkOf = passwordLinkTokenIn;
    const first = await waitFor(async () => mailer.sent.find((sent) => sent.to === email), { what: 'invitation' });
    let team = (await co.admin('GET', '/api/account/company/')).body.user_profiles as Array<{
      uuid: string;
      invitation_pending: boolean;
      last_sign_in_at: string | null;
    }>;
    expect(team.find((member) => member.uuid === invited.body.uuid)).toMatchObject({
      invitation_pending: true,
      last_sign_in_at: null,
    });

    expect(
      (await co.admin('POST', '/api/account/company/user_profile/invitation', { uuid: invited.body.uuid })).status,
    ).toBe(204);
    const second = await waitFor(async () => mailer.sent.filter((sent) => sent.to === email)[1], {
      what: 'the second invitation',
    });
    const setPassword = (text: string) => co.client.acceptLink(linkOf(text), memberPassword);
    expect((await setPassword(first.text)).status).toBe(401);
    expect((await setPassword(second.text)).status).toBe(204);
    team = (await co.admin('GET', '/api/account/company/')).body.user_profiles;
    expect(team.find((member) => member.uuid === invited.body.uuid)?.invitation_pending).toBe(false);
    const again = await co.admin('POST', '/api/account/company/user_profile/invitation', { uuid: invited.body.uuid });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ uuid: ['This member has already chosen a password'] });
  });

  test("when a reviewer or another company's admin manages the team, then 403 or 404 and nothing changes", async () => {
    const co = await company();
    const other = await company();
    const reviewer = await co.member('REVIEWER');
    const handler = await co.member('HANDLER');
    for (const [method, path, body] of [
      ['PUT', '/api/account/company/user_profile/', { uuid: handler.id, roles: ['ADMIN'] }],
      ['POST', '/api/account/company/user_profile/invitation', { uuid: handler.id }],
    ] as const) {
      expect((await co.client.call(method, path, { bearer: reviewer.token, body })).status).toBe(403);
      expect((await other.admin(method, path, body)).status).toBe(404);
    }
    const team = (await co.admin('GET', '/api/account/company/')).body.user_profiles as Array<{
      uuid: string;
      roles: string[];
    }>;
    expect(team.find((member) => member.uuid === handler.id)?.roles).toEqual(['HANDLER']);
  });
});
