import { randomUUID } from 'node:crypto';
import { createRecordingMailer, type RecordingMailer } from '@whistle/mailer/testing';
import { asTenant, serviceDatabase } from '@whistle/service-kit';
import {
  createTestDependencies,
  tablesOutsideTenantWall,
  testStacks,
  waitFor,
  type TestDependencies,
} from '@whistle/service-kit/testing';
import { adminPassword, onboardCompany, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

/**
 * Tables with a company_id that hold no company's data behind the wall: the outbox is read by the relay, outside
 * any tenant scope, for every company at once (its company_id only says whose event it is).
 */
const OPEN_TABLES = ['outbox'];

/** Each walled table, and how one of its rows names its company (category_assignee: through its category). */
const WALLED_TABLES: ReadonlyArray<[table: string, company: string]> = [
  ['company', 't.id'],
  ['user_profile', 't.company_id'],
  ['category', 't.company_id'],
  ['category_assignee', '(select c.company_id from auth.category c where c.id = t.category_id)'],
  ['location', 't.company_id'],
  ['label_in_use', 't.company_id'],
  ['one_time_secret', 't.company_id'],
  ['sso_settings', 't.company_id'],
  ['saml_request', 't.company_id'],
];

describe.each(testStacks)('the tenant wall of the auth schema on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  let mailer: RecordingMailer;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
    mailer = createRecordingMailer();
    auth = await startAuth({ ...test$.deps, mailer });
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  /**
   * An onboarded company with a row in every walled table: a pending invitation (one_time_secret), a label with
   * an assignee, and, written as the service does outside a request, a label in use, SSO settings and a pending
   * SAML request.
   */
  async function company() {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const adminToken = (await client.login(onboarded.email, adminPassword)).body.token as string;
    const admin = (method: string, path: string, body?: unknown) =>
      client.call(method, path, { bearer: adminToken, body });
    const profile = await admin('GET', '/api/account/company/profile/');
    const own = await admin('GET', '/api/account/company/');
    const companyId = own.body.uuid as string;
    const invited = await admin('POST', '/api/account/company/user_profile/', {
      email: `invited@${onboarded.domain}`,
      full_name: 'Ivy Invited',
      roles: ['HANDLER'],
    });
    expect(invited.status).toBe(201);
    const label = await admin('POST', '/api/account/company/category/', {
      name: 'Walled label',
      management_categories: [],
      user_profiles: [profile.body.uuid],
    });
    expect(label.status).toBe(201);
    const { db } = test$.deps;
    await db.query('insert into auth.label_in_use (label_id, company_id) values ($1, $2)', [
      label.body.uuid,
      companyId,
    ]);
    await db.query(
      `insert into auth.sso_settings (company_id, enabled, entry_point, idp_certificate)
       values ($1, false, 'https://idp.example/sso', 'not checked here')`,
      [companyId],
    );
    await db.query('insert into auth.saml_request (id, company_id) values ($1, $2)', [`_${randomUUID()}`, companyId]);
    return { ...onboarded, companyId, admin };
  }

  test('when the schema is migrated, then every table holding a company’s rows is behind the wall', async () => {
    expect(await tablesOutsideTenantWall(test$.deps.db, 'auth', OPEN_TABLES)).toEqual([]);
  });

  test('when a query forgets its company condition in a company’s scope, then it gets that company’s rows of every walled table and no other’s', async () => {
    const a = await company();
    const b = await company();
    const db = serviceDatabase(test$.deps.db, 'auth');

    const emails = await asTenant(a.companyId, () =>
      db.query<{ email: string }>('select email from auth.user_profile order by email'),
    );
    expect(emails.rows).toEqual([{ email: a.email }, { email: `invited@${a.domain}` }]);
    const names = await asTenant(a.companyId, () => db.query<{ name: string }>('select name from auth.category'));
    const namesOfA = await db.query<{ name: string }>('select name from auth.category where company_id = $1', [
      a.companyId,
    ]);
    expect(names.rows.map((row) => row.name).sort()).toEqual(namesOfA.rows.map((row) => row.name).sort());
    expect(names.rows).toContainEqual({ name: 'Walled label' });

    for (const [table, companyOf] of WALLED_TABLES) {
      const seen = await asTenant(a.companyId, () =>
        db.query<{ company_id: string; rows: number }>(
          `select ${companyOf} as company_id, count(*)::int as rows from auth.${table} t group by 1`,
        ),
      );
      // The service itself, outside a scope, sees both companies' rows: those the scope did not show are there.
      const all = await db.query<{ company_id: string; rows: number }>(
        `select ${companyOf} as company_id, count(*)::int as rows from auth.${table} t
          where ${companyOf} = any($1::uuid[]) group by 1 order by 1`,
        [[a.companyId, b.companyId]],
      );
      expect({ table, companies: all.rows.length }).toEqual({ table, companies: 2 });
      expect({ table, seen: seen.rows }).toEqual({
        table,
        seen: all.rows.filter((row) => row.company_id === a.companyId),
      });
    }
  });

  test('when a write in a company’s scope names another company, then it is refused and nothing is written', async () => {
    const a = await company();
    const b = await company();
    const db = serviceDatabase(test$.deps.db, 'auth');
    await expect(
      asTenant(a.companyId, () =>
        db.query(`insert into auth.location (id, company_id, name) values ($1, $2, 'Planted')`, [
          randomUUID(),
          b.companyId,
        ]),
      ),
    ).rejects.toThrow(/row-level security/);
    const renamed = await asTenant(a.companyId, () =>
      db.query(`update auth.company set name = 'Renamed' where id = $1`, [b.companyId]),
    );
    expect(renamed.rowCount).toBe(0);
    const rows = await db.query(
      `select 1 from auth.location where company_id = $1 and name = 'Planted'
       union all select 1 from auth.company where id = $1 and name = 'Renamed'`,
      [b.companyId],
    );
    expect(rows.rows).toEqual([]);
  });

  test('when a statement in a company’s scope writes the company’s keys or identity, or a member’s e-mail or company, then PostgreSQL refuses it', async () => {
    const a = await company();
    const db = serviceDatabase(test$.deps.db, 'auth');
    for (const sql of [
      `update auth.company set public_key = 'planted'`,
      `update auth.company set aes_encrypted_private_key = 'planted'`,
      `update auth.company set wrapped_passphrase = 'planted'`,
      `update auth.company set url_identifier = 'planted'`,
      `update auth.company set email_domain = 'planted.example'`,
      'delete from auth.company',
      `update auth.user_profile set email = 'planted@planted.example'`,
      'update auth.user_profile set company_id = company_id',
      `update auth.one_time_secret set secret_hash = 'planted'`,
      `update auth.company_key set public_key = 'planted'`,
      'delete from auth.company_key',
    ])
      await expect(asTenant(a.companyId, () => db.query(sql))).rejects.toMatchObject({ code: '42501' });
    // What staff requests write still goes through, for the tenant's own rows only.
    const renamed = await asTenant(a.companyId, () => db.query(`update auth.company set title = 'Walled'`));
    expect(renamed.rowCount).toBe(1);
  });

  test('when an admin invites an address another company uses, then 400 in the same words as for an own member, and no account or mail is made', async () => {
    const a = await company();
    const b = await company();
    const { db } = test$.deps;
    const mailsBefore = mailer.sent.length;

    const ownMember = await a.admin('POST', '/api/account/company/user_profile/', {
      email: a.email,
      full_name: 'Again',
      roles: ['HANDLER'],
    });
    const otherCompanys = await a.admin('POST', '/api/account/company/user_profile/', {
      email: b.email.toUpperCase(),
      full_name: 'Someone Else',
      roles: ['HANDLER'],
    });
    expect(ownMember.status).toBe(400);
    expect(otherCompanys.status).toBe(400);
    expect(otherCompanys.body).toEqual(ownMember.body);
    expect(otherCompanys.body.errors).toEqual({ email: ['This email address cannot be invited'] });

    const accounts = await db.query<{ company_id: string }>(
      'select company_id from auth.user_profile where lower(email) = lower($1)',
      [b.email],
    );
    expect(accounts.rows).toEqual([{ company_id: b.companyId }]);
    // The request's rolled-back transaction left the connection usable for the next request of that company.
    const team = await a.admin('GET', '/api/account/company/');
    expect(team.status).toBe(200);
    expect((team.body.user_profiles as Array<{ email: string }>).map((member) => member.email)).not.toContain(b.email);
    // A fresh address of the same company is still invited, and only its mail leaves.
    const fresh = `fresh-${randomUUID().slice(0, 6)}@${a.domain}`;
    expect(
      (
        await a.admin('POST', '/api/account/company/user_profile/', {
          email: fresh,
          full_name: 'F',
          roles: ['HANDLER'],
        })
      ).status,
    ).toBe(201);
    await waitFor(async () => mailer.sent.find((sent) => sent.to === fresh), { what: 'the fresh invitation' });
    expect(mailer.sent.slice(mailsBefore).map((sent) => sent.to)).toEqual([fresh]);
  });
});
