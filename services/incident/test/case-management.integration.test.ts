/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope, IncidentListItem } from '@whistle/contracts';
import {
  decryptContent,
  deriveDiscloserAuthToken,
  encryptContent,
  openIncidentAsCompany,
  type ContentBinding,
} from '@whistle/crypto';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { createIncidentSessionVerifier } from '@whistle/tokens';
import { caseViewRepository } from '../src/data-access/case-view.repository';
import { listCases } from '../src/domain/cases/list-cases.use-case';
import {
  announce,
  announceStaff,
  call,
  getJson,
  fileReport,
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

const DAY = 24 * 60 * 60 * 1000;

describe.each(testStacks)('case management on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let admin: StaffMember;
  let reviewer: StaffMember;
  let handler: StaffMember;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'case-test-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'case-test-observer',
      events: ['incident.#'],
      handle: async (event) => void published.push(event),
    });
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

  /** A discloser's report of `company`; answers its id and what the discloser needs to come back. */
  async function report(fields: Record<string, string> = { description: 'Invoices without delivery' }, overrides = {}) {
    const filed = await reportFor(company, fields, overrides);
    const created = await fileReport(incident.baseUrl, filed.body);
    const authToken = await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase);
    const opened = await getJson(
      retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id),
      authToken,
    );
    const session = (await opened.json()) as { token: string };
    return { id: created.uuid, retrievalId: created.retrieval_id, authToken, discloserToken: session.token, filed };
  }

  const eventsOf = (name: string, incidentId: string) =>
    published.filter((event) => event.name === name && event.payload.incident_id === incidentId);

  describe('the list', () => {
    test('when staff list the cases, then they see a page with the total, the clocks, and the name decryptable only with the company key', async () => {
      const named = await report({ description: 'Kickbacks', full_name: 'Jane Doe' }, { report_anonymously: false });
      const list = await api('GET', '/api/incident/?page_size=100', await admin.token());
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ page: 1, page_size: 100 });
      expect(list.body.count).toBe(list.body.results.length);
      const item = list.body.results.find((row: IncidentListItem) => row.uuid === named.id) as IncidentListItem;
      expect(item).toMatchObject({
        status: { name: 'NEW' },
        report_channel: 'online',
        report_anonymously: false,
        location: { uuid: company.locations.office, name: 'Head office' },
        outcome: null,
      });
      expect(item.management_categories.map((category) => category.name)).toEqual(['Fraud', 'Bribery']);
      expect(item.clocks.acknowledgement.state).toBe('due');
      const ackDue = new Date(item.clocks.acknowledgement.due_at).getTime() - new Date(item.created).getTime();
      expect(Math.round(ackDue / DAY)).toBe(7);
      expect(item.full_name).toMatch(/^v2\./);
      const handle = await openIncidentAsCompany({
        ...item.keys,
        company_encrypted_passphrase: item.keys.company_encrypted_passphrase!,
        companyPrivateKey: await company.privateKey(),
      });
      expect(await decryptContent(handle, item.full_name!, { kind: 'field', name: 'full_name' })).toBe('Jane Doe');
      expect(JSON.stringify(list.body)).not.toContain('Jane Doe');
    });

    test('when sorted and paged, then the order is the asked one and the count covers every page', async () => {
      for (let i = 0; i < 3; i += 1) await report();
      const token = await admin.token();
      const all = await api('GET', '/api/incident/?page_size=100&sort=created', token);
      const created = all.body.results.map((row: IncidentListItem) => row.created);
      expect(created).toEqual([...created].sort());
      const firstPage = await api('GET', '/api/incident/?page_size=2&sort=-created', token);
      const secondPage = await api('GET', '/api/incident/?page_size=2&page=2&sort=-created', token);
      expect(firstPage.body.count).toBe(all.body.count);
      expect(firstPage.body.count_capped).toBe(false);
      expect(secondPage.body.results[0].created <= firstPage.body.results[1].created).toBe(true);
      expect(firstPage.body.results.map((row: IncidentListItem) => row.uuid)).not.toContain(
        secondPage.body.results[0].uuid,
      );
      const byCategory = await api('GET', '/api/incident/?page_size=100&sort=-category__name', token);
      expect(byCategory.status).toBe(200);
      const byDefault = await api('GET', '/api/incident/?page_size=100', token);
      const activity = byDefault.body.results.map((row: IncidentListItem) => row.last_activity_at);
      expect(activity).toEqual([...activity].sort().reverse());
    });

    test('when more cases match than the count limit, then the count stops there and says so; the pages still come', async () => {
      for (let i = 0; i < 3; i += 1) await report();
      const query = { sort: '-created', page: 1, page_size: 2 } as const;
      const exact = await listCases(test$.deps.db, admin, query);
      expect(exact.count).toBeGreaterThanOrEqual(3);
      const capped = await listCases(test$.deps.db, admin, query, 2);
      expect({ count: capped.count, count_capped: capped.count_capped }).toEqual({ count: 2, count_capped: true });
      expect(capped.results).toHaveLength(2);
      const secondPage = await listCases(test$.deps.db, admin, { ...query, page: 2 }, 2);
      expect(secondPage.results.length).toBeGreaterThan(0);
      const atLimit = await listCases(test$.deps.db, admin, query, exact.count);
      expect({ count: atLimit.count, count_capped: atLimit.count_capped }).toEqual({
        count: exact.count,
        count_capped: false,
      });
    });

    test('when filtered by status, channel, location, category or overdue, then only matching cases come', async () => {
      const phoned = await report(undefined, { report_channel: 'telephone' });
      const late = await report();
      await test$.deps.db.query(
        `update incident.incident set acknowledgement_due_at = now() - interval '1 day' where id = $1`,
        [late.id],
      );
      const token = await admin.token();
      const ids = async (query: string) =>
        (await api('GET', `/api/incident/?page_size=100&${query}`, token)).body.results.map(
          (row: IncidentListItem) => row.uuid,
        );
      expect(await ids('channel=telephone')).toEqual([phoned.id]);
      expect(await ids('overdue=true')).toEqual([late.id]);
      expect(await ids('overdue=false')).not.toContain(late.id);
      expect(await ids('status=CLOSED')).toEqual([]);
      expect((await ids('status=NEW,ACKNOWLEDGED')).length).toBeGreaterThan(2);
      expect(await ids(`location=${company.locations.closed}`)).toEqual([]);
      expect(await ids(`category=${company.categories.bribery}`)).toContain(phoned.id);
      const overdue = (await api('GET', `/api/incident/?overdue=true`, token)).body.results[0] as IncidentListItem;
      expect(overdue.clocks.acknowledgement.state).toBe('overdue');
    });

    test('when the query is wrong, then 400 says which parameter and nothing else happens', async () => {
      const token = await admin.token();
      for (const [query, field] of [
        ['page_size=101', 'page_size'],
        ['page_size=0', 'page_size'],
        ['page=-1', 'page'],
        ['sort=name', 'sort'],
        ['status=OPEN', 'status.0'],
        ['category=nope', 'category.0'],
        ['mine=true', 'non_field_errors'],
      ]) {
        const answer = await api('GET', `/api/incident/?${query}`, token);
        expect({ query, status: answer.status }).toEqual({ query, status: 400 });
        expect(Object.keys(answer.body.errors)).toEqual([field]);
      }
      expect((await api('GET', '/api/incident/?page_size=101', await admin.token())).body.errors.page_size).toEqual([
        'Page size is at most 100',
      ]);
    });

    test('when asked without a staff token, or with a discloser’s, then 401', async () => {
      const mine = await report();
      expect((await api('GET', '/api/incident/')).status).toBe(401);
      expect((await api('GET', '/api/incident/', mine.discloserToken)).status).toBe(401);
      expect((await api('GET', `/api/incident/${mine.id}`, mine.discloserToken)).status).toBe(401);
    });
  });

  describe('who sees what', () => {
    test('when a report comes in, then its labels’ assignees get it, and a handler sees only the cases assigned to them', async () => {
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
        { what: 'the assignee in the read model' },
      );
      const assigned = await report();
      const unassigned = await report(undefined, { category_uuids: [company.categories.fraud] });
      await test$.deps.db.query('delete from incident.assignee where incident_id = $1', [unassigned.id]);
      const listed = await api('GET', '/api/incident/?page_size=100', await handler.token());
      const ids = listed.body.results.map((row: IncidentListItem) => row.uuid);
      expect(ids).toContain(assigned.id);
      expect(ids).not.toContain(unassigned.id);
      expect(listed.body.count).toBe(ids.length);
      expect((await api('GET', `/api/incident/${unassigned.id}`, await handler.token())).status).toBe(404);
      const detail = await api('GET', `/api/incident/${assigned.id}`, await handler.token());
      expect(detail.body.assignees).toEqual([{ uuid: handler.userId, full_name: 'Hal Handler' }]);
      expect(detail.body.permissions).toEqual({
        update_status: true,
        reply: true,
        add_note: true,
        assign: false,
        exclude: false,
        change_categories: false,
      });
      const assignedEvent = await waitFor(() => eventsOf('incident.assigned', assigned.id)[0], {
        what: 'incident.assigned',
      });
      expect(assignedEvent.actor).toEqual({ type: 'SYSTEM' });
      expect(assignedEvent.payload).toMatchObject({ added_ids: [handler.userId], removed_ids: [] });
      // A reviewer triages every case; assigned_to_me narrows to theirs.
      expect((await api('GET', `/api/incident/${unassigned.id}`, await reviewer.token())).status).toBe(200);
      expect((await api('GET', '/api/incident/?assigned_to_me=true', await reviewer.token())).body.count).toBe(0);
    });

    test('when a caseload is paged and filtered, then each page counts every case of it that matches, past the last page too', async () => {
      const hers = await announceStaff(test$.deps, company, 'Cora Caseload', ['HANDLER']);
      const cases = [await report(), await report(undefined, { report_channel: 'telephone' }), await report()];
      for (const { id } of cases)
        await test$.deps.db.query(
          'insert into incident.assignee (incident_id, user_id, company_id) values ($1, $2, $3)',
          [id, hers.userId, company.companyId],
        );
      const query = { sort: '-created', page: 1, page_size: 2 } as const;
      const counts = async (extra: object, countLimit?: number) => {
        const { count, count_capped, results } = await listCases(
          test$.deps.db,
          hers,
          { ...query, ...extra },
          countLimit,
        );
        return { count, count_capped, listed: results.length };
      };
      expect(await counts({})).toEqual({ count: 3, count_capped: false, listed: 2 });
      expect(await counts({ page: 2 })).toEqual({ count: 3, count_capped: false, listed: 1 });
      expect(await counts({ page: 3 })).toEqual({ count: 3, count_capped: false, listed: 0 });
      expect(await counts({ channel: ['telephone'] })).toEqual({ count: 1, count_capped: false, listed: 1 });
      expect(await counts({}, 2)).toEqual({ count: 2, count_capped: true, listed: 2 });
      // An admin's own caseload is read the same way.
      await test$.deps.db.query(
        'insert into incident.assignee (incident_id, user_id, company_id) values ($1, $2, $3)',
        [cases[0]!.id, admin.userId, company.companyId],
      );
      const adminsOwn = await listCases(test$.deps.db, admin, { ...query, assigned_to_me: true });
      expect({ count: adminsOwn.count, uuids: adminsOwn.results.map((row) => row.uuid) }).toEqual({
        count: 1,
        uuids: [cases[0]!.id],
      });
    });

    test('when an admin excludes someone from a case, then that person can neither list, open, write to, note nor export it', async () => {
      const otherAdmin = await announceStaff(test$.deps, company, 'Oscar Other', ['ADMIN']);
      const sensitive = await report();
      const excluded = await api('PUT', `/api/incident/${sensitive.id}/`, await admin.token(), {
        excluded_user_uuids: [otherAdmin.userId],
      });
      expect(excluded.status).toBe(200);
      expect(excluded.body.excluded_users).toEqual([{ uuid: otherAdmin.userId, full_name: 'Oscar Other' }]);
      const token = await otherAdmin.token();
      const listed = await api('GET', '/api/incident/?page_size=100', token);
      expect(listed.body.results.map((row: IncidentListItem) => row.uuid)).not.toContain(sensitive.id);
      expect((await api('GET', `/api/incident/${sensitive.id}`, token)).status).toBe(404);
      expect((await api('GET', `/api/incident/${sensitive.id}/message`, token)).status).toBe(404);
      expect((await api('GET', `/api/incident/${sensitive.id}/note`, token)).status).toBe(404);
      expect((await api('PUT', `/api/incident/${sensitive.id}/`, token, { status: 'ACKNOWLEDGED' })).status).toBe(404);
      const content = await encryptContent(sensitive.filed.credentials.incident.publicKey, 'hello', {
        kind: 'message',
        from: 'staff',
      });
      expect(
        (await api('POST', '/api/incident/message/', token, { incident_uuid: sensitive.id, content })).status,
      ).toBe(404);
      expect((await api('POST', '/api/incident/note/', token, { incident_uuid: sensitive.id, content })).status).toBe(
        404,
      );
      const exported = await fetch(`${incident.baseUrl}/api/incident/export`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(await exported.text()).not.toContain(sensitive.id);
      // They cannot be assigned it either, and the exclusion is on record.
      const assign = await api('PUT', `/api/incident/${sensitive.id}/`, await admin.token(), {
        assignee_uuids: [otherAdmin.userId],
      });
      expect(assign.status).toBe(400);
      expect(assign.body.errors.assignee_uuids).toEqual(['Someone excluded from this case cannot be assigned to it']);
      const event = await waitFor(() => eventsOf('incident.exclusion.changed', sensitive.id)[0], {
        what: 'the exclusion event',
      });
      expect(event.payload).toEqual({
        incident_id: sensitive.id,
        excluded_user_ids: [otherAdmin.userId],
        added_ids: [otherAdmin.userId],
        removed_ids: [],
      });
      // Only admins see who is excluded, and only they exclude.
      expect((await api('GET', `/api/incident/${sensitive.id}`, await reviewer.token())).body.excluded_users).toEqual(
        [],
      );
      expect(
        (await api('PUT', `/api/incident/${sensitive.id}/`, await reviewer.token(), { excluded_user_uuids: [] }))
          .status,
      ).toBe(403);
    });

    test('when another company’s staff ask for a case, then it does not exist for them, whatever they try', async () => {
      const other = await seedCompany(test$.deps);
      const stranger = await announceStaff(test$.deps, other, 'Stan Stranger', ['ADMIN']);
      const mine = await report();
      const token = await stranger.token();
      expect((await api('GET', '/api/incident/?page_size=100', token)).body.count).toBe(0);
      for (const [method, path, body] of [
        ['GET', `/api/incident/${mine.id}`, undefined],
        ['PUT', `/api/incident/${mine.id}/`, { status: 'ACKNOWLEDGED' }],
        ['GET', `/api/incident/${mine.id}/message`, undefined],
        ['GET', `/api/incident/${mine.id}/file`, undefined],
        ['GET', `/api/incident/${mine.id}/note`, undefined],
        ['POST', '/api/incident/note/', { incident_uuid: mine.id, content: 'v1.AAAA' }],
        ['POST', '/api/incident/message/', { incident_uuid: mine.id, content: 'v1.AAAA' }],
      ] as const) {
        const answer = await api(method, path, token, body);
        expect({ path, method, status: answer.status }).toEqual({ path, method, status: 404 });
        expect(answer.body).toEqual({ message: 'Incident not found' });
      }
      expect((await api('GET', `/api/incident/${randomUUID()}`, token)).body).toEqual({
        message: 'Incident not found',
      });
      const exported = await fetch(`${incident.baseUrl}/api/incident/export`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(exported.headers.get('x-total-count')).toBe('0');
    });

    test('when a token was logged out, or its user removed, then every replica refuses it', async () => {
      const replica = await startIncident(test$.deps, {}, { replica: true });
      try {
        const member = await announceStaff(test$.deps, company, 'Lou Leaving', ['ADMIN']);
        const jti = randomUUID();
        const loggedOut = await staffToken({
          userId: member.userId,
          companyId: company.companyId,
          roles: ['ADMIN'],
          jti,
        });
        expect((await api('GET', '/api/incident/', loggedOut)).status).toBe(200);
        await announce(test$.deps, {
          name: 'token.revoked',
          company_id: company.companyId,
          payload: { jti, user_id: member.userId, expires_at: new Date(Date.now() + 900_000).toISOString() },
        });
        const revoked = async (baseUrl: string, token: string) =>
          (await call(baseUrl, 'GET', '/api/incident/', { token })).status === 401;
        await waitFor(
          async () => (await revoked(incident.baseUrl, loggedOut)) && (await revoked(replica.baseUrl, loggedOut)),
          {
            what: 'the revocation on both replicas',
          },
        );
        const issuedBefore = await staffToken({
          userId: member.userId,
          companyId: company.companyId,
          roles: ['ADMIN'],
          issuedAt: Math.floor(Date.now() / 1000) - 5,
        });
        await announce(test$.deps, {
          name: 'user.deleted',
          company_id: company.companyId,
          payload: { user_id: member.userId, deleted_at: new Date().toISOString() },
        });
        await waitFor(
          async () => (await revoked(incident.baseUrl, issuedBefore)) && (await revoked(replica.baseUrl, issuedBefore)),
          {
            what: 'the removal on both replicas',
          },
        );
      } finally {
        await replica.close();
      }
    });
  });

  describe('the case', () => {
    test('when staff open a case, then they get every encrypted field, the history, a file token for that case, and the opening is on record', async () => {
      const opened = await report({ description: 'Cash in envelopes', location_detail: 'Dock 4' });
      const detail = await api('GET', `/api/incident/${opened.id}`, await reviewer.token());
      expect(detail.status).toBe(200);
      expect(detail.body.fields.map((field: { name: string }) => field.name)).toEqual([
        'description',
        'location_detail',
      ]);
      const handle = await openIncidentAsCompany({
        ...detail.body.keys,
        companyPrivateKey: await company.privateKey(),
      });
      expect(
        await decryptContent(handle, detail.body.fields[0].value, { kind: 'field', name: detail.body.fields[0].name }),
      ).toBe('Cash in envelopes');
      expect(detail.body.status_history).toEqual([]);
      const files = await createIncidentSessionVerifier(incident.publicKeyPem).verify(detail.body.file_token);
      expect(files).toMatchObject({
        incidentId: opened.id,
        companyId: company.companyId,
        actor: { type: 'STAFF', userId: reviewer.userId },
      });
      const viewed = await waitFor(() => eventsOf('incident.viewed', opened.id)[0], { what: 'incident.viewed' });
      expect(viewed.actor).toEqual({ type: 'STAFF', user_id: reviewer.userId });
      expect(viewed.payload).toEqual({ incident_id: opened.id });
    });

    test('when staff print a case, then every printing is on record; a case they may not see is unknown and nothing is recorded', async () => {
      // Of a label without default assignees: the handler is not assigned to it.
      const printed = await report(undefined, { category_uuids: [company.categories.bribery] });
      const token = await reviewer.token();
      for (let time = 0; time < 2; time += 1) {
        const answer = await api('POST', `/api/incident/${printed.id}/print`, token);
        expect(answer.status).toBe(204);
      }
      const records = await waitFor(
        () =>
          eventsOf('incident.printed', printed.id).length === 2 ? eventsOf('incident.printed', printed.id) : undefined,
        { what: 'two incident.printed' },
      );
      expect(records.map((event) => [event.actor, event.payload])).toEqual([
        [{ type: 'STAFF', user_id: reviewer.userId }, { incident_id: printed.id }],
        [{ type: 'STAFF', user_id: reviewer.userId }, { incident_id: printed.id }],
      ]);
      // A handler not assigned to it, a discloser's session, another company's staff and no case at all.
      const stranger = await announceStaff(test$.deps, await seedCompany(test$.deps), 'Stan Stranger', ['ADMIN']);
      expect((await api('POST', `/api/incident/${printed.id}/print`, await handler.token())).status).toBe(404);
      expect((await api('POST', `/api/incident/${printed.id}/print`, await stranger.token())).status).toBe(404);
      expect((await api('POST', `/api/incident/${printed.id}/print`, printed.discloserToken)).status).toBe(401);
      expect((await api('POST', `/api/incident/${randomUUID()}/print`, token)).status).toBe(404);
      expect((await api('POST', '/api/incident/not-a-case/print', token)).status).toBe(404);
      const stored = await test$.deps.db.query(
        `select count(*)::int as count from incident.outbox where name = 'incident.printed' and payload->>'incident_id' = $1`,
        [printed.id],
      );
      expect(stored.rows[0]).toEqual({ count: 2 });
    });

    test('when staff open a case again in one sign-in, even with a refreshed token, then the opening is on record once; a new sign-in records it again', async () => {
      const opened = await report();
      const signedIn = Math.floor(Date.now() / 1000) - 600;
      const tokenOf = (authTime: number, issuedAt = authTime) =>
        staffToken({
          userId: reviewer.userId,
          companyId: company.companyId,
          roles: reviewer.roles,
          authTime,
          issuedAt,
        });
      // The outbox holds the events each answer committed: counted there, nothing is waited for.
      const viewsOnRecord = async () => {
        const { rows } = await test$.deps.db.query(
          `select id from incident.outbox where name = 'incident.viewed' and payload->>'incident_id' = $1`,
          [opened.id],
        );
        return rows.length;
      };
      for (const token of [await tokenOf(signedIn), await tokenOf(signedIn), await tokenOf(signedIn, signedIn + 300)]) {
        expect((await api('GET', `/api/incident/${opened.id}`, token)).status).toBe(200);
      }
      expect(await viewsOnRecord()).toBe(1);
      expect((await api('GET', `/api/incident/${opened.id}`, await tokenOf(signedIn + 60))).status).toBe(200);
      expect(await viewsOnRecord()).toBe(2);
      expect((await api('GET', `/api/incident/${opened.id}`, await admin.token())).status).toBe(200);
      expect(await viewsOnRecord()).toBe(3);
    });

    test('when the case is deleted between its reading and the record of its opening, then nothing is recorded and nothing fails', async () => {
      const opening = { companyId: company.companyId, userId: reviewer.userId, signedInAt: new Date() };
      await expect(
        caseViewRepository.recordFirstInSession(test$.deps.db, { ...opening, incidentId: randomUUID() }),
      ).resolves.toBe(false);
    });

    test('when a case is acknowledged, investigated, closed with an outcome and reopened, then its clocks follow, the history keeps who and why, and the discloser sees only the status', async () => {
      const mine = await report();
      const token = await handler.token();
      await api('PUT', `/api/incident/${mine.id}/`, await admin.token(), { assignee_uuids: [handler.userId] });

      const acknowledged = await api('PUT', `/api/incident/${mine.id}/`, token, { status: 'ACKNOWLEDGED' });
      expect(acknowledged.status).toBe(200);
      expect(acknowledged.body.status).toEqual({ name: 'ACKNOWLEDGED' });
      expect(acknowledged.body.clocks.acknowledgement.state).toBe('done');
      const feedbackDue = new Date(acknowledged.body.clocks.feedback.due_at).getTime() - Date.now();
      expect(feedbackDue / DAY).toBeGreaterThan(88);

      const before = await api('GET', `/api/incident/${mine.id}`, token);
      const refused = [
        [{ status: 'NEW' }, 'status'],
        [{ status: 'REOPENED', motivation: 'v1.AAAA' }, 'status'],
        [{ status: 'CLOSED', motivation: 'v1.AAAA' }, 'outcome'],
        [{ status: 'CLOSED', outcome: 'spam' }, 'motivation'],
        [{ status: 'CLOSED', outcome: 'maybe', motivation: 'v1.AAAA' }, 'outcome'],
        [{ status: 'INVESTIGATION', outcome: 'spam' }, 'outcome'],
        [{ status: 'INVESTIGATION', motivation: 'plain words' }, 'motivation'],
        [{ status: 'INVESTIGATION', final_message: 'v1.AAAA' }, 'final_message'],
        [{ status: 'CLOSED', outcome: 'spam', motivation: 'v1.AAAA', final_message: 'plain words' }, 'final_message'],
        [{}, 'non_field_errors'],
      ] as const;
      for (const [body, field] of refused) {
        const answer = await api('PUT', `/api/incident/${mine.id}/`, token, body);
        expect({ body, status: answer.status }).toEqual({ body, status: 400 });
        expect(Object.keys(answer.body.errors)).toContain(field);
      }
      const after = await api('GET', `/api/incident/${mine.id}`, token);
      expect(after.body.status).toEqual(before.body.status);
      expect(after.body.status_history).toEqual(before.body.status_history);

      await api('PUT', `/api/incident/${mine.id}/`, token, { status: 'INVESTIGATION' });
      const motivation = await encryptContent(mine.filed.credentials.incident.publicKey, 'Proven by the ledger', {
        kind: 'motivation',
      });
      const finalMessage = await encryptContent(
        mine.filed.credentials.incident.publicKey,
        'Your report was confirmed',
        { kind: 'message', from: 'staff' },
      );
      const closed = await api('PUT', `/api/incident/${mine.id}/`, token, {
        status: 'CLOSED',
        outcome: 'substantiated',
        motivation,
        final_message: finalMessage,
      });
      expect(closed.body).toMatchObject({ status: { name: 'CLOSED' }, outcome: 'substantiated' });
      expect(Object.values(closed.body.clocks).every((clock) => (clock as { state: string }).state === 'done')).toBe(
        true,
      );
      expect(
        closed.body.status_history.map((change: { from: string; to: string }) => `${change.from}→${change.to}`),
      ).toEqual(['NEW→ACKNOWLEDGED', 'ACKNOWLEDGED→INVESTIGATION', 'INVESTIGATION→CLOSED']);
      expect(closed.body.status_history[2]).toMatchObject({
        outcome: 'substantiated',
        motivation,
        changed_by: { uuid: handler.userId, full_name: 'Hal Handler' },
      });

      const discloserView = await (
        await getJson(retrievalUrl(incident.baseUrl, company.urlIdentifier, mine.retrievalId), mine.authToken)
      ).json();
      expect(discloserView.status).toEqual({ name: 'CLOSED' });
      expect(JSON.stringify(discloserView)).not.toContain('substantiated');
      expect(JSON.stringify(discloserView)).not.toContain(motivation);

      const reopened = await api('PUT', `/api/incident/${mine.id}/`, token, {
        status: 'REOPENED',
        motivation: await encryptContent(mine.filed.credentials.incident.publicKey, 'New evidence', {
          kind: 'motivation',
        }),
      });
      expect(reopened.body).toMatchObject({ status: { name: 'REOPENED' }, outcome: null });
      expect(reopened.body.clocks.resolution.state).not.toBe('done');
      // The final message's feedback is announced apart (see "feedback and closing").
      const statusEvents = () =>
        eventsOf('incident.updated', mine.id).filter((event) => (event.payload.changes as string[]).includes('status'));
      const updates = await waitFor(() => (statusEvents().length >= 4 ? statusEvents() : undefined), {
        what: 'the four status events',
      });
      expect(updates.map((event) => [event.payload.previous_status, event.payload.status])).toEqual([
        ['NEW', 'ACKNOWLEDGED'],
        ['ACKNOWLEDGED', 'INVESTIGATION'],
        ['INVESTIGATION', 'CLOSED'],
        ['CLOSED', 'REOPENED'],
      ]);
      expect(JSON.stringify(updates)).not.toContain(motivation);
      expect(updates[0]!.actor).toEqual({ type: 'STAFF', user_id: handler.userId });
    });

    test('when assignment is changed, then only admins and reviewers may, only for the company’s current staff, and it is announced', async () => {
      // Bribery has no default assignee: nobody gets this case until someone assigns it.
      const mine = await report(undefined, { category_uuids: [company.categories.bribery] });
      expect(
        (await api('PUT', `/api/incident/${mine.id}/`, await handler.token(), { assignee_uuids: [] })).status,
      ).toBe(404);
      const unknown = await api('PUT', `/api/incident/${mine.id}/`, await reviewer.token(), {
        assignee_uuids: [randomUUID()],
      });
      expect(unknown.body.errors).toEqual({ assignee_uuids: ['Unknown user'] });
      const assigned = await api('PUT', `/api/incident/${mine.id}/`, await reviewer.token(), {
        assignee_uuids: [handler.userId, reviewer.userId],
      });
      expect(assigned.body.assignees.map((member: { full_name: string }) => member.full_name)).toEqual([
        'Hal Handler',
        'Rita Reviewer',
      ]);
      // Now the handler sees it, but still may not reassign it.
      expect(
        (await api('PUT', `/api/incident/${mine.id}/`, await handler.token(), { assignee_uuids: [] })).status,
      ).toBe(403);
      const event = await waitFor(
        () => eventsOf('incident.assigned', mine.id).find((each) => each.actor?.type === 'STAFF'),
        {
          what: 'incident.assigned',
        },
      );
      expect([...(event.payload.added_ids as string[])].sort()).toEqual([handler.userId, reviewer.userId].sort());
      const categories = await api('PUT', `/api/incident/${mine.id}/`, await admin.token(), {
        category_uuids: [company.categories.retired],
      });
      expect(categories.body.errors).toEqual({ category_uuids: ['Unknown category'] });
    });

    test('when a case’s categories are changed, then only an admin may, to active ones, and it is announced', async () => {
      const mine = await report(undefined, { category_uuids: [company.categories.bribery] });
      const change = (token: string, ids: string[]) =>
        api('PUT', `/api/incident/${mine.id}/`, token, { category_uuids: ids });
      const byReviewer = await change(await reviewer.token(), [company.categories.fraud]);
      expect(byReviewer.status).toBe(403);
      expect(byReviewer.body.message).toBe('Only an admin changes the categories of a case');
      expect((await change(await admin.token(), [])).body.errors).toEqual({
        category_uuids: ['This field is required'],
      });
      const changed = await change(await admin.token(), [company.categories.fraud, company.categories.fraud]);
      expect(changed.status).toBe(200);
      expect(changed.body.management_categories.map((category: { uuid: string }) => category.uuid)).toEqual([
        company.categories.fraud,
      ]);
      expect(changed.body.permissions.change_categories).toBe(true);
      const event = await waitFor(
        () =>
          eventsOf('incident.updated', mine.id).find((each) =>
            (each.payload.changes as string[]).includes('categories'),
          ),
        { what: 'the categories change' },
      );
      expect(event.actor).toEqual({ type: 'STAFF', user_id: admin.userId });
      expect(event.payload.category_ids).toEqual([company.categories.fraud]);
      // The reviewer's refused change left them as the admin set them.
      expect(
        (await api('GET', `/api/incident/${mine.id}`, await reviewer.token())).body.management_categories.map(
          (category: { uuid: string }) => category.uuid,
        ),
      ).toEqual([company.categories.fraud]);
    });

    test('when two cases are linked, then each lists the other to those who may see it, both trails record it, and unlinking undoes it', async () => {
      const first = await report(undefined, { category_uuids: [company.categories.bribery] });
      const second = await report(undefined, { category_uuids: [company.categories.bribery] });
      const token = await reviewer.token();
      const link = (from: string, to: string, as = token) =>
        api('POST', `/api/incident/${from}/link`, as, { incident_uuid: to });
      const linked = await link(first.id, second.id);
      expect(linked.status).toBe(200);
      expect(linked.body.linked_cases).toEqual([
        { uuid: second.id, display_report_number: expect.any(Number), status: { name: 'NEW' } },
      ]);
      // Linking again changes and records nothing.
      expect((await link(second.id, first.id)).body.linked_cases.map((each: { uuid: string }) => each.uuid)).toEqual([
        first.id,
      ]);
      const seen = await api('GET', `/api/incident/${second.id}`, token);
      expect(seen.body.linked_cases.map((each: { uuid: string }) => each.uuid)).toEqual([first.id]);
      for (const [one, other] of [
        [first.id, second.id],
        [second.id, first.id],
      ]) {
        const event = await waitFor(() => eventsOf('incident.linked', one!)[0], { what: 'incident.linked' });
        expect(event.payload).toEqual({ incident_id: one, linked_incident_id: other });
        expect(event.actor).toEqual({ type: 'STAFF', user_id: reviewer.userId });
      }

      // A handler assigned to the first case only: the link does not tell them of the second, nor may they make one.
      expect((await api('PUT', `/api/incident/${first.id}/`, token, { assignee_uuids: [handler.userId] })).status).toBe(
        200,
      );
      const asHandler = await api('GET', `/api/incident/${first.id}`, await handler.token());
      expect(asHandler.body.linked_cases).toEqual([]);
      const refused = await link(first.id, second.id, await handler.token());
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ incident_uuid: ['Unknown case'] });
      expect((await link(second.id, first.id, await handler.token())).status).toBe(404);
      expect((await link(first.id, first.id)).body.errors).toEqual({
        incident_uuid: ['A case cannot be linked to itself'],
      });
      expect((await link(first.id, randomUUID())).body.errors).toEqual({ incident_uuid: ['Unknown case'] });
      expect((await api('POST', `/api/incident/${first.id}/link`, token, { incident_uuid: 'x' })).status).toBe(400);

      const unlinked = await api('DELETE', `/api/incident/${second.id}/link/${first.id}`, token);
      expect(unlinked).toMatchObject({ status: 200, body: { linked_cases: [] } });
      expect((await api('GET', `/api/incident/${first.id}`, token)).body.linked_cases).toEqual([]);
      await waitFor(() => (eventsOf('incident.unlinked', first.id).length === 1 ? true : undefined), {
        what: 'incident.unlinked',
      });
      expect(eventsOf('incident.linked', first.id)).toHaveLength(1);
    });

    test('when staff reply and mark it as feedback, then the discloser reads it from staff, and the feedback clock stops', async () => {
      const mine = await report();
      const token = await admin.token();
      const content = await encryptContent(mine.filed.credentials.incident.publicKey, 'We are on it', {
        kind: 'message',
        from: 'staff',
      });
      const sent = await api('POST', '/api/incident/message/', token, {
        incident_uuid: mine.id,
        content,
        feedback: true,
      });
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ sender: { name: 'Ada Admin', source: 'STAFF' }, feedback: true });
      const thread = await api('GET', `/api/incident/${mine.id}/message`, mine.discloserToken);
      expect(thread.body).toEqual([
        expect.objectContaining({ content, sender: { name: 'Ada Admin', source: 'STAFF' } }),
      ]);
      const detail = await api('GET', `/api/incident/${mine.id}`, token);
      expect(detail.body.clocks.feedback.state).toBe('done');
      const discloserFeedback = await api('POST', '/api/incident/message/', mine.discloserToken, {
        incident_uuid: mine.id,
        content,
        feedback: true,
      });
      expect(discloserFeedback.status).toBe(400);
      const created = await waitFor(() => eventsOf('incident.message.created', mine.id)[0], {
        what: 'the message event',
      });
      expect(created.actor).toEqual({ type: 'STAFF', user_id: admin.userId });
      expect(created.payload).toEqual({
        incident_id: mine.id,
        incident_message_id: sent.body.uuid,
        sender_source: 'STAFF',
      });
    });

    describe('feedback and closing (directive art. 9(1)(f))', () => {
      const encrypted = (mine: Awaited<ReturnType<typeof report>>, text: string, binding: ContentBinding) =>
        encryptContent(mine.filed.credentials.incident.publicKey, text, binding);
      const close = async (mine: Awaited<ReturnType<typeof report>>, token: string, extra: object = {}) =>
        api('PUT', `/api/incident/${mine.id}/`, token, {
          status: 'CLOSED',
          outcome: 'unsubstantiated',
          motivation: await encrypted(mine, 'No evidence found', { kind: 'motivation' }),
          ...extra,
        });

      test('when a reply not marked as feedback was sent, then closing without a final message is refused and changes nothing', async () => {
        const mine = await report();
        const token = await admin.token();
        await api('PUT', `/api/incident/${mine.id}/`, token, { status: 'ACKNOWLEDGED' });
        const reply = await api('POST', '/api/incident/message/', token, {
          incident_uuid: mine.id,
          content: await encrypted(mine, 'Could you tell us more?', { kind: 'message', from: 'staff' }),
        });
        expect(reply.status).toBe(201);
        const before = await api('GET', `/api/incident/${mine.id}`, token);
        expect(before.body.clocks.feedback.state).not.toBe('done');

        const refused = await close(mine, token);
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual({
          final_message: ['Feedback to the reporter is due: a final message to them is required to close the case'],
        });
        const after = await api('GET', `/api/incident/${mine.id}`, token);
        expect(after.body.status).toEqual({ name: 'ACKNOWLEDGED' });
        expect(after.body.clocks.feedback).toEqual(before.body.clocks.feedback);
        expect(after.body.status_history).toEqual(before.body.status_history);
        expect((await api('GET', `/api/incident/${mine.id}/message`, token)).body).toHaveLength(1);
      });

      test('when closed with a final message, then the case closes, the message reaches the reporter as feedback, and the feedback clock stops, in one change', async () => {
        const mine = await report();
        const token = await handler.token();
        await api('PUT', `/api/incident/${mine.id}/`, await admin.token(), { assignee_uuids: [handler.userId] });
        const finalMessage = await encrypted(mine, 'We looked into it and found no evidence.', {
          kind: 'message',
          from: 'staff',
        });
        const closed = await close(mine, token, { final_message: finalMessage });
        expect(closed.status).toBe(200);
        expect(closed.body).toMatchObject({ status: { name: 'CLOSED' }, outcome: 'unsubstantiated' });
        expect(closed.body.clocks.feedback.state).toBe('done');
        expect(closed.body.clocks.feedback.done_at).toBe(closed.body.status_history.at(-1).changed_at);

        const thread = await api('GET', `/api/incident/${mine.id}/message`, mine.discloserToken);
        expect(thread.body).toEqual([
          expect.objectContaining({
            content: finalMessage,
            feedback: true,
            final: true,
            sender: { name: 'Hal Handler', source: 'STAFF' },
          }),
        ]);
        const handle = await openIncidentAsCompany({
          ...closed.body.keys,
          companyPrivateKey: await company.privateKey(),
        });
        expect(await decryptContent(handle, thread.body[0].content, { kind: 'message', from: 'staff' })).toBe(
          'We looked into it and found no evidence.',
        );
        const [created] = await waitFor(
          () =>
            eventsOf('incident.message.created', mine.id).length > 0
              ? eventsOf('incident.message.created', mine.id)
              : undefined,
          { what: 'the final message event' },
        );
        expect(created!.payload).toEqual({
          incident_id: mine.id,
          incident_message_id: thread.body[0].uuid,
          sender_source: 'STAFF',
        });
        const updates = await waitFor(
          () => (eventsOf('incident.updated', mine.id).length >= 2 ? eventsOf('incident.updated', mine.id) : undefined),
          { what: 'the closing and the feedback events' },
        );
        // The closing and the feedback it carried, each announced (the audit trail records both).
        expect(
          updates.map((event) => [event.payload.changes, event.payload.previous_status, event.payload.status]),
        ).toEqual([
          [['status'], 'NEW', 'CLOSED'],
          [['feedback'], 'CLOSED', 'CLOSED'],
        ]);
        expect(updates.map((event) => event.actor)).toEqual([
          { type: 'STAFF', user_id: handler.userId },
          { type: 'STAFF', user_id: handler.userId },
        ]);
        expect(JSON.stringify(updates)).not.toContain(finalMessage);
      });

      test('when feedback was given first, then the case closes without a final message, and may still carry one (not feedback again)', async () => {
        const first = await report();
        const token = await admin.token();
        const feedback = await api('POST', '/api/incident/message/', token, {
          incident_uuid: first.id,
          content: await encrypted(first, 'We are investigating', { kind: 'message', from: 'staff' }),
          feedback: true,
        });
        expect(feedback.status).toBe(201);
        const feedbackAt = (await api('GET', `/api/incident/${first.id}`, token)).body.clocks.feedback.done_at;
        const closed = await close(first, token);
        expect(closed.status).toBe(200);
        expect(closed.body.clocks.feedback).toMatchObject({ state: 'done', done_at: feedbackAt });
        expect((await api('GET', `/api/incident/${first.id}/message`, first.discloserToken)).body).toHaveLength(1);

        const second = await report();
        await api('POST', '/api/incident/message/', token, {
          incident_uuid: second.id,
          content: await encrypted(second, 'We are investigating', { kind: 'message', from: 'staff' }),
          feedback: true,
        });
        const withMessage = await close(second, token, {
          final_message: await encrypted(second, 'Case closed', { kind: 'message', from: 'staff' }),
        });
        expect(withMessage.status).toBe(200);
        const thread = (await api('GET', `/api/incident/${second.id}/message`, second.discloserToken)).body;
        expect(thread.map(({ feedback, final }: { feedback: boolean; final: boolean }) => [feedback, final])).toEqual([
          [true, false],
          [true, true],
        ]);
      });

      test('when a case is closed, then the feedback clock is not stopped by the closing itself, and reopening keeps the feedback given', async () => {
        const mine = await report();
        const token = await admin.token();
        const closed = await close(mine, token, {
          final_message: await encrypted(mine, 'Closed as unfounded', { kind: 'message', from: 'staff' }),
        });
        const reopened = await api('PUT', `/api/incident/${mine.id}/`, token, {
          status: 'REOPENED',
          motivation: await encrypted(mine, 'New evidence', { kind: 'motivation' }),
        });
        expect(reopened.body.clocks.feedback).toEqual(closed.body.clocks.feedback);
        // Closing again needs no second final message: the reporter has had their feedback.
        expect((await close(mine, token)).status).toBe(200);
      });
    });

    test('when staff add private notes, then staff with access read them, the discloser never does, and the event carries ids only', async () => {
      const mine = await report();
      const content = await encryptContent(mine.filed.credentials.incident.publicKey, 'Witness is the manager', {
        kind: 'note',
      });
      const added = await api('POST', '/api/incident/note/', await reviewer.token(), {
        incident_uuid: mine.id,
        content,
      });
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ content, author: { uuid: reviewer.userId, full_name: 'Rita Reviewer' } });
      expect((await api('GET', `/api/incident/${mine.id}/note`, await admin.token())).body).toEqual([added.body]);
      expect((await api('GET', `/api/incident/${mine.id}/note`, mine.discloserToken)).status).toBe(401);
      expect(
        (await api('POST', '/api/incident/note/', mine.discloserToken, { incident_uuid: mine.id, content })).status,
      ).toBe(401);
      expect(
        (await api('POST', '/api/incident/note/', await admin.token(), { incident_uuid: mine.id, content: 'in clear' }))
          .status,
      ).toBe(400);
      const event = await waitFor(() => eventsOf('incident.note.created', mine.id)[0], {
        what: 'incident.note.created',
      });
      expect(event.payload).toEqual({ incident_id: mine.id, incident_note_id: added.body.uuid });
    });
  });

  describe('export', () => {
    test('when staff export with filters, then NDJSON rows of what they may see come with their total, and the export is on record', async () => {
      const phoned = await report({ description: 'x', full_name: 'Joe' }, { report_channel: 'internal' });
      const token = await admin.token();
      const response = await fetch(`${incident.baseUrl}/api/incident/export?channel=internal`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const rows = (await response.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(rows).toHaveLength(Number(response.headers.get('x-total-count')));
      expect(rows.map((row) => row.uuid)).toEqual([phoned.id]);
      expect(Object.keys(rows[0]).sort()).toEqual(
        [
          'assignees',
          'clocks',
          'created',
          'display_report_number',
          'full_name',
          'keys',
          'location',
          'management_categories',
          'outcome',
          'report_anonymously',
          'status',
          'updated',
          'uuid',
        ].sort(),
      );
      // The extended export's figures, as the case shows them (its labels' default assignees come from earlier tests).
      const shown = (await api('GET', `/api/incident/${phoned.id}`, token)).body;
      expect(rows[0]).toMatchObject({
        outcome: null,
        assignees: shown.assignees,
        clocks: { acknowledgement: { done_at: null } },
      });
      const event = await waitFor(
        () => published.find((each) => each.name === 'incident.exported' && each.payload.count === 1),
        {
          what: 'incident.exported',
        },
      );
      expect(event.payload.filters).toMatchObject({ channel: ['internal'] });
      expect(
        (
          await fetch(`${incident.baseUrl}/api/incident/export?page=2`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(400);
    });

    test('when staff export selected cases, then only those of them they may see come, and the selection is on record', async () => {
      const [first, second, third] = [await report(), await report(), await report()];
      const token = await admin.token();
      const ids = [first.id, third.id];
      const response = await fetch(`${incident.baseUrl}/api/incident/export?incident=${ids.join('&incident=')}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-total-count')).toBe('2');
      const rows = (await response.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { uuid: string });
      expect(rows.map((row) => row.uuid).sort()).toEqual([...ids].sort());
      expect(rows.map((row) => row.uuid)).not.toContain(second.id);
      const event = await waitFor(
        () =>
          published.find(
            (each) => each.name === 'incident.exported' && JSON.stringify(each.payload.filters).includes(first.id),
          ),
        { what: 'incident.exported with a selection' },
      );
      expect(event.payload).toMatchObject({ count: 2, filters: { incident: ids } });
      // The selection narrows what the person may see, never widens it: the handler, unassigned (the labels' default
      // assignees of earlier tests may have given them the case), is not given it by naming it.
      expect((await api('PUT', `/api/incident/${first.id}/`, token, { assignee_uuids: [] })).status).toBe(200);
      const handlers = await fetch(`${incident.baseUrl}/api/incident/export?incident=${first.id}`, {
        headers: { authorization: `Bearer ${await handler.token()}` },
      });
      expect(handlers.headers.get('x-total-count')).toBe('0');
      for (const bad of ['incident=not-a-uuid', `incident=${Array.from({ length: 101 }, () => first.id).join(',')}`]) {
        const refused = await fetch(`${incident.baseUrl}/api/incident/export?${bad}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(refused.status).toBe(400);
      }
    });
  });
});
