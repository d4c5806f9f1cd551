/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import type { AuditLogResponse, AuditVerification, EventEnvelope } from '@whistle/contracts';
import { asTenant, type Queryable, serviceDatabase } from '@whistle/service-kit';
import {
  createTestDependencies,
  tablesOutsideTenantWall,
  testStacks,
  waitFor,
  type TestDependencies,
} from '@whistle/service-kit/testing';
import { auditEventRepository } from '../src/data-access/audit-event.repository';
import { auditEntryFacts } from '../src/domain/audit-entry';
import { publish, staffToken, startAudit } from './support';

const recorded = async (db: Queryable, id: string) =>
  (await db.query('select 1 from audit.audit_event where id = $1', [id])).rows.length > 0;

describe.each(testStacks)('audit trail on %s', (stack) => {
  let test$: TestDependencies;
  let audit: Awaited<ReturnType<typeof startAudit>>;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['audit']);
    audit = await startAudit(test$);
  });
  afterAll(async () => {
    await audit?.close();
    await test$?.dispose();
  });

  /** Publishes and waits until the trail has it. */
  async function record(event: Parameters<typeof publish>[1]): Promise<EventEnvelope> {
    const envelope = await publish(test$, event);
    await waitFor(() => recorded(test$.deps.db, envelope.id), { what: `${event.name} in the trail` });
    return envelope;
  }

  /** A company whose admin (Ada) and handler (Hal) auth has announced. */
  async function company() {
    const companyId = randomUUID();
    const admin = { userId: randomUUID(), companyId, roles: ['ADMIN'] };
    const handler = { userId: randomUUID(), companyId, roles: ['HANDLER'] };
    await record({
      name: 'user.created',
      company_id: companyId,
      payload: { user_id: admin.userId, email: 'ada@corp.example', full_name: 'Ada Lovelace', roles: ['ADMIN'] },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    await record({
      name: 'user.created',
      company_id: companyId,
      payload: { user_id: handler.userId, email: 'hal@corp.example', full_name: 'Hal Jordan', roles: ['HANDLER'] },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    return { companyId, admin, handler, adminToken: await staffToken(admin) };
  }

  const get = async <T>(path: string, token?: string) => {
    const response = await fetch(`${audit.baseUrl}${path}`, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  test('when staff, the discloser and the platform act, then each entry says who (name at the time), what, on which object, and whether it succeeded', async () => {
    const { companyId, admin, handler, adminToken } = await company();
    const incidentId = randomUUID();
    const reported = await record({
      name: 'incident.created',
      company_id: companyId,
      payload: {
        incident_id: incidentId,
        display_report_number: 1,
        status: 'NEW',
        report_channel: 'online',
        report_anonymously: true,
        category_ids: [],
        location_id: randomUUID(),
      },
      actor: { type: 'DISCLOSER' },
    });
    await record({
      name: 'incident.viewed',
      company_id: companyId,
      payload: { incident_id: incidentId },
      actor: { type: 'STAFF', user_id: handler.userId },
    });
    // Hal becomes Harold: what he did before keeps the name he had then.
    await record({
      name: 'user.updated',
      company_id: companyId,
      payload: {
        user_id: handler.userId,
        email: 'hal@corp.example',
        full_name: 'Harold Jordan',
        roles: ['HANDLER'],
        language: 'en',
        notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true },
      },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    await record({
      name: 'incident.updated',
      company_id: companyId,
      payload: {
        incident_id: incidentId,
        display_report_number: 1,
        status: 'ACKNOWLEDGED',
        previous_status: 'NEW',
        outcome: null,
        changes: ['status'],
        category_ids: [],
      },
      actor: { type: 'STAFF', user_id: handler.userId },
    });
    await record({
      name: 'user.sign_in_failed',
      company_id: companyId,
      payload: { user_id: handler.userId, factor: 'password' },
      actor: { type: 'SYSTEM' },
    });

    const { status, body } = await get<AuditLogResponse>('/api/account/company/audit_log/', adminToken);
    expect(status).toBe(200);
    expect(body.count).toBe(7);
    const summary = body.results.map((entry) => [entry.action, entry.actor.type, entry.actor.name, entry.success]);
    expect(summary).toEqual([
      ['login-failed', 'SYSTEM', 'Whistle', false],
      ['incident-status-changed', 'STAFF', 'Harold Jordan', true],
      ['user-updated', 'STAFF', 'Ada Lovelace', true],
      ['incident-opened', 'STAFF', 'Hal Jordan', true],
      ['incident-reported', 'DISCLOSER', 'Discloser', true],
      ['user-invited', 'STAFF', 'Ada Lovelace', true],
      ['user-created', 'STAFF', 'Ada Lovelace', true],
    ]);
    expect(body.results.find((entry) => entry.uuid === reported.id)).toMatchObject({
      table_identifier: 'incident',
      object_uuid: incidentId,
      incident_uuid: incidentId,
      actor: { uuid: null },
    });
  });

  test('when the trail is filtered, then a case’s history includes its messages and notes, and bad filters answer 400', async () => {
    const { companyId, admin, adminToken } = await company();
    const incidentId = randomUUID();
    const other = randomUUID();
    const byAdmin = { type: 'STAFF' as const, user_id: admin.userId };
    await record({
      name: 'incident.viewed',
      company_id: companyId,
      payload: { incident_id: incidentId },
      actor: byAdmin,
    });
    await record({
      name: 'incident.note.created',
      company_id: companyId,
      payload: { incident_id: incidentId, incident_note_id: randomUUID() },
      actor: byAdmin,
    });
    await record({
      name: 'incident.message.created',
      company_id: companyId,
      payload: { incident_id: incidentId, incident_message_id: randomUUID(), sender_source: 'DISCLOSER' },
      actor: { type: 'DISCLOSER' },
    });
    await record({ name: 'incident.viewed', company_id: companyId, payload: { incident_id: other }, actor: byAdmin });

    const history = await get<AuditLogResponse>(`/api/account/company/audit_log/?incident=${incidentId}`, adminToken);
    expect(history.body.results.map((entry) => entry.action)).toEqual([
      'incident-message-sent',
      'incident-note-added',
      'incident-opened',
    ]);
    const incidentsOnly = await get<AuditLogResponse>(
      '/api/account/company/audit_log/?table_identifiers=incident&action=incident-opened',
      adminToken,
    );
    expect(incidentsOnly.body.count).toBe(2);
    const byUser = await get<AuditLogResponse>(`/api/account/company/audit_log/?user=${admin.userId}`, adminToken);
    expect(byUser.body.results.every((entry) => entry.actor.uuid === admin.userId)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const period = await get<AuditLogResponse>(
      `/api/account/company/audit_log/?from=${today}&to=${today}&page_size=2&page=2`,
      adminToken,
    );
    expect(period.body).toMatchObject({ count: 6, page: 2, page_size: 2 });
    expect(period.body.results).toHaveLength(2);

    for (const query of [
      'table_identifiers=incident,payments',
      'from=yesterday',
      `from=${today}&to=2000-01-01`,
      'page_size=500',
      'object=not-a-uuid',
      'sneaky=1',
    ]) {
      const refused = await get<{ message: string; errors: Record<string, string[]> }>(
        `/api/account/company/audit_log/?${query}`,
        adminToken,
      );
      expect({ query, status: refused.status }).toEqual({ query, status: 400 });
      expect(Object.keys(refused.body.errors).length).toBeGreaterThan(0);
    }
  });

  test('when anyone but an admin of the company asks, then the trail is refused or scoped to their own company', async () => {
    const first = await company();
    const second = await company();
    await record({
      name: 'incident.viewed',
      company_id: first.companyId,
      payload: { incident_id: randomUUID() },
      actor: { type: 'STAFF', user_id: first.admin.userId },
    });
    expect((await get('/api/account/company/audit_log/')).status).toBe(401);
    for (const roles of [['HANDLER'], ['REVIEWER']])
      expect((await get('/api/account/company/audit_log/', await staffToken({ ...first.handler, roles }))).status).toBe(
        403,
      );
    const seenBySecond = await get<AuditLogResponse>('/api/account/company/audit_log/', second.adminToken);
    expect(seenBySecond.body.count).toBe(2);
    expect(JSON.stringify(seenBySecond.body)).not.toContain(first.admin.userId);
  });

  test('when a token was logged out or its user removed, then the audit endpoints refuse it on every replica', async () => {
    const { companyId, admin, handler } = await company();
    const jti = randomUUID();
    const loggedOut = await staffToken({ ...admin, jti });
    expect((await get('/api/account/company/audit_log/', loggedOut)).status).toBe(200);
    await record({
      name: 'token.revoked',
      company_id: companyId,
      payload: { jti, user_id: admin.userId, expires_at: new Date(Date.now() + 900_000).toISOString() },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    expect((await get('/api/account/company/audit_log/', loggedOut)).status).toBe(401);

    const removedAdmin = { ...handler, roles: ['ADMIN'] };
    const before = await staffToken({ ...removedAdmin, issuedAt: Math.floor(Date.now() / 1000) - 5 });
    await record({
      name: 'user.deleted',
      company_id: companyId,
      payload: { user_id: handler.userId, deleted_at: new Date().toISOString() },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    expect((await get('/api/account/company/audit_log/', before)).status).toBe(401);
  });

  test('when events of a company arrive together, then its chain stays one line; an edited row breaks it at that row, a removed last row shows as truncated', async () => {
    const { companyId, admin, adminToken } = await company();
    const envelopes = await Promise.all(
      Array.from({ length: 25 }, () =>
        publish(test$, {
          name: 'incident.viewed',
          company_id: companyId,
          payload: { incident_id: randomUUID() },
          actor: { type: 'STAFF', user_id: admin.userId },
        }),
      ),
    );
    await waitFor(
      async () => {
        const { rows } = await test$.deps.db.query<{ n: number }>(
          'select count(*)::int as n from audit.audit_event where company_id = $1',
          [companyId],
        );
        return rows[0]!.n === 27;
      },
      { what: 'every entry in the trail' },
    );
    const intact = await get<AuditVerification>('/api/account/company/audit_log/verify', adminToken);
    expect(intact.body).toEqual({ intact: true, checked: 27, first_broken: null, truncated: false });

    // Someone with database access edits one entry, going around the append-only trigger.
    const victim = envelopes[10]!.id;
    const { rows } = await test$.deps.db.query<{ seq: string }>('select seq from audit.audit_event where id = $1', [
      victim,
    ]);
    await test$.deps.db.query('alter table audit.audit_event disable trigger audit_event_append_only');
    try {
      await test$.deps.db.query(`update audit.audit_event set actor_name = 'Someone else' where id = $1`, [victim]);
      const broken = await get<AuditVerification>('/api/account/company/audit_log/verify', adminToken);
      expect(broken.body).toMatchObject({
        intact: false,
        first_broken: { uuid: victim, sequence: Number(rows[0]!.seq) },
      });
      await test$.deps.db.query(`update audit.audit_event set actor_name = 'Ada Lovelace' where id = $1`, [victim]);
      expect((await get<AuditVerification>('/api/account/company/audit_log/verify', adminToken)).body.intact).toBe(
        true,
      );
      await test$.deps.db.query(
        `delete from audit.audit_event where id = (select id from audit.audit_event where company_id = $1 order by seq desc limit 1)`,
        [companyId],
      );
      expect((await get<AuditVerification>('/api/account/company/audit_log/verify', adminToken)).body).toMatchObject({
        intact: false,
        first_broken: null,
        truncated: true,
      });
    } finally {
      await test$.deps.db.query('alter table audit.audit_event enable trigger audit_event_append_only');
    }
  });

  test('when a query forgets its company condition in a company’s tenant scope, then it sees only that company’s entries, staff and chain head', async () => {
    const first = await company();
    const second = await company();
    // A platform entry, as the trail records events of no company.
    await auditEventRepository.insert(test$.deps.db, {
      id: randomUUID(),
      companyId: null,
      name: 'company.created',
      version: 1,
      action: 'company-created',
      success: true,
      tableIdentifier: 'company',
      objectId: second.companyId,
      incidentId: null,
      actor: { type: 'SYSTEM', userId: null, name: 'Whistle' },
      occurredAt: new Date().toISOString(),
      payload: {},
    });
    const everyone = await test$.deps.db.query<{ company_id: string | null }>(
      'select distinct company_id from audit.audit_event',
    );
    expect(everyone.rows.map((row) => row.company_id)).toEqual(
      expect.arrayContaining([first.companyId, second.companyId, null]),
    );

    const auditDb = serviceDatabase(test$.deps.db, 'audit');
    const entries = await asTenant(first.companyId, () =>
      auditDb.query<{ company_id: string }>('select company_id from audit.audit_event'),
    );
    expect(entries.rows).toEqual([{ company_id: first.companyId }, { company_id: first.companyId }]);
    const staff = await asTenant(first.companyId, () =>
      auditDb.query<{ user_id: string }>('select user_id from audit.staff_member order by full_name'),
    );
    expect(staff.rows).toEqual([{ user_id: first.admin.userId }, { user_id: first.handler.userId }]);
    const heads = await asTenant(first.companyId, () =>
      auditDb.query<{ company_key: string; seq: string }>('select company_key, seq::text from audit.chain_head'),
    );
    expect(heads.rows).toEqual([{ company_key: first.companyId, seq: '2' }]);
  });

  test('when a statement in a company’s tenant scope writes the trail, then PostgreSQL refuses it: the role only reads', async () => {
    const first = await company();
    const auditDb = serviceDatabase(test$.deps.db, 'audit');
    const writes: (() => Promise<unknown>)[] = [
      // A forged entry of the tenant's own company, as an injection in a staff request would try.
      () =>
        auditEventRepository.insert(auditDb, {
          id: randomUUID(),
          companyId: first.companyId,
          name: 'user.signed_in',
          version: 1,
          action: 'user-signed-in',
          success: true,
          tableIdentifier: 'user_profile',
          objectId: first.admin.userId,
          incidentId: null,
          actor: { type: 'STAFF', userId: first.admin.userId, name: 'Forged' },
          occurredAt: new Date().toISOString(),
          payload: {},
        }),
      () => auditDb.query(`update audit.audit_event set actor_name = 'Someone else'`),
      () => auditDb.query('delete from audit.audit_event'),
      () => auditDb.query(`update audit.chain_head set seq = seq + 1`),
      () => auditDb.query(`update audit.staff_member set full_name = 'Someone else'`),
    ];
    for (const write of writes) await expect(asTenant(first.companyId, write)).rejects.toMatchObject({ code: '42501' });
  });

  test('when the schema is migrated, then every table holding a company’s rows is behind the tenant wall', async () => {
    // outbox: the kit's relay table, which the audit service never writes to (it publishes no event).
    expect(await tablesOutsideTenantWall(test$.deps.db, 'audit', ['outbox'])).toEqual([]);
  });

  test('when anyone tries to rewrite history through the application, then the database refuses', async () => {
    await expect(test$.deps.db.query("update audit.audit_event set name = 'tampered'")).rejects.toThrow(/append-only/);
    await expect(test$.deps.db.query('delete from audit.audit_event')).rejects.toThrow(/append-only/);
  });

  test('when someone is kept out of a case, by its discloser or for a conflict of interest, then the trail does not show them its entries, in pages, counts or the export', async () => {
    const { companyId, admin, adminToken } = await company();
    const bea = { userId: randomUUID(), companyId, roles: ['ADMIN'] };
    await record({
      name: 'user.created',
      company_id: companyId,
      payload: { user_id: bea.userId, email: 'bea@corp.example', full_name: 'Bea Admin', roles: ['ADMIN'] },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    const beaToken = await staffToken(bea);
    const [keptOut, open] = [randomUUID(), randomUUID()];
    const reported = (incidentId: string, excluded: string[]) => ({
      name: 'incident.created',
      version: 2,
      company_id: companyId,
      payload: {
        incident_id: incidentId,
        display_report_number: 1,
        status: 'NEW',
        report_channel: 'online',
        report_anonymously: true,
        category_ids: [],
        location_id: randomUUID(),
        excluded_user_ids: excluded,
      },
      actor: { type: 'DISCLOSER' as const },
    });
    await record(reported(keptOut, [bea.userId]));
    await record(reported(open, []));
    await record({
      name: 'incident.message.created',
      company_id: companyId,
      payload: { incident_id: keptOut, incident_message_id: randomUUID(), sender_source: 'STAFF' },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    const cases = async (token: string) => {
      const { body } = await get<AuditLogResponse>('/api/account/company/audit_log/?page_size=100', token);
      return { count: body.count, cases: new Set(body.results.map((entry) => entry.incident_uuid).filter(Boolean)) };
    };
    const csv = async (token: string) =>
      (
        await fetch(`${audit.baseUrl}/api/account/company/audit_log/export`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).text();

    const ada = await cases(adminToken);
    expect([...ada.cases].sort()).toEqual([keptOut, open].sort());
    const seenByBea = await cases(beaToken);
    expect([...seenByBea.cases]).toEqual([open]);
    // The two entries of the case she is kept out of are not counted either.
    expect(seenByBea.count).toBe(ada.count - 2);
    expect(await csv(beaToken)).not.toContain(keptOut);
    expect(await get(`/api/account/company/audit_log/?incident=${keptOut}`, beaToken)).toMatchObject({
      status: 200,
      body: { count: 0, results: [] },
    });

    // An admin lifts her exclusion, then excludes Ada for a conflict of interest: the whole list after each change.
    await record({
      name: 'incident.exclusion.changed',
      company_id: companyId,
      payload: {
        incident_id: keptOut,
        excluded_user_ids: [admin.userId],
        added_ids: [admin.userId],
        removed_ids: [bea.userId],
      },
      actor: { type: 'STAFF', user_id: bea.userId },
    });
    expect((await cases(beaToken)).cases).toEqual(new Set([keptOut, open]));
    expect((await cases(adminToken)).cases).toEqual(new Set([open]));
  });

  test('when the trail is exported, then a CSV of the filtered entries comes back, names quoted and formulas defused by the CSV library', async () => {
    const { companyId, admin, adminToken } = await company();
    await record({
      name: 'user.updated',
      company_id: companyId,
      payload: {
        user_id: admin.userId,
        email: 'ada@corp.example',
        full_name: '=Lovelace, "Ada"',
        roles: ['ADMIN'],
        language: 'fr',
        notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true },
      },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    await record({
      name: 'incident.exported',
      company_id: companyId,
      payload: { count: 3, filters: {} },
      actor: { type: 'STAFF', user_id: admin.userId },
    });
    const response = await fetch(`${audit.baseUrl}/api/account/company/audit_log/export?action=incidents-exported`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toContain('audit-log.csv');
    const lines = (await response.text()).trim().split('\n');
    expect(lines[0]).toBe('Date (UTC),Action,Result,Actor,Actor type,Object type,Object,Case');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',incidents-exported,success,"\'=Lovelace, ""Ada""",STAFF,incident,');
  });
});

describe('audit entry facts', () => {
  const base = { id: randomUUID(), version: 1, company_id: null, occurred_at: new Date().toISOString() };
  test('when an event names a nested subject, then its table identifier joins the words', () => {
    expect(auditEntryFacts({ ...base, name: 'company.created', payload: { company_id: 'c' } })).toMatchObject({
      action: 'company-created',
      tableIdentifier: 'company',
      objectId: 'c',
      incidentId: null,
    });
    expect(
      auditEntryFacts({
        ...base,
        name: 'incident.message.created',
        payload: { incident_message_id: 'm', incident_id: 'i' },
      }),
    ).toMatchObject({
      action: 'incident-message-sent',
      tableIdentifier: 'incident_message',
      objectId: 'm',
      incidentId: 'i',
    });
  });

  test('when an event has no mapping of its own, then its action is its name in kebab-case', () => {
    expect(auditEntryFacts({ ...base, name: 'category.updated', payload: { category_id: 'c' } }).action).toBe(
      'category-updated',
    );
    expect(
      auditEntryFacts({ ...base, name: 'incident.deadline', payload: { incident_id: 'i', state: 'due_soon' } }).action,
    ).toBe('incident-deadline-due-soon');
  });
});

describe('audit trail migration', () => {
  test('when entries were recorded before the chain existed, then the migration links them in recorded order and later entries continue the chain', async () => {
    const test$ = await createTestDependencies('pglite+in-process');
    try {
      const { auditMigrations } = await import('../src/data-access/migrations');
      const { migrate, messagingMigrations } = await import('@whistle/service-kit');
      const { streamBefore } = await import('@whistle/service-kit/testing');
      const { auditEventRepository } = await import('../src/data-access/audit-event.repository');
      await migrate(test$.deps.db, 'audit', messagingMigrations('audit'), streamBefore(auditMigrations, '002'));
      const companyId = randomUUID();
      for (let i = 0; i < 3; i += 1)
        await test$.deps.db.query(
          `insert into audit.audit_event (id, company_id, name, version, table_identifier, object_id, occurred_at, payload, recorded_at)
           values ($1, $2, 'incident.viewed', 1, 'incident', $3, now(), '{}', now() + ($4 || ' seconds')::interval)`,
          [randomUUID(), companyId, randomUUID(), String(i)],
        );
      const { tokenRevocations } = await import('../src/domain/token-revocations');
      await migrate(test$.deps.db, 'audit', tokenRevocations.migrations, auditMigrations);
      expect(await auditEventRepository.firstBrokenLink(test$.deps.db, companyId)).toEqual({
        checked: 3,
        truncated: false,
      });
      await auditEventRepository.insert(test$.deps.db, {
        id: randomUUID(),
        companyId,
        name: 'incident.viewed',
        version: 1,
        action: 'incident-opened',
        success: true,
        tableIdentifier: 'incident',
        objectId: randomUUID(),
        incidentId: null,
        actor: { type: 'SYSTEM', userId: null, name: 'Whistle' },
        occurredAt: new Date().toISOString(),
        payload: {},
      });
      const { rows } = await test$.deps.db.query<{ seq: string; action: string }>(
        'select seq, action from audit.audit_event where company_id = $1 order by seq',
        [companyId],
      );
      expect(rows.map((row) => [Number(row.seq), row.action])).toEqual([
        [1, 'incident-viewed'],
        [2, 'incident-viewed'],
        [3, 'incident-viewed'],
        [4, 'incident-opened'],
      ]);
      expect((await auditEventRepository.firstBrokenLink(test$.deps.db, companyId)).broken).toBeUndefined();
    } finally {
      await test$.dispose();
    }
  });
});
