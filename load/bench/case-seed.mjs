// What the case benchmarks share: one tenant with BENCH_CASES cases (default 100,000), served by the built standalone
// platform, on PostgreSQL (default; BENCH_DATABASE_URL, default the loopback server: a database of its own, dropped
// by `close()` unless BENCH_KEEP_DATABASE=1) or on its embedded PGlite (BENCH_DATABASE=pglite: a data folder of its
// own). Real reports are made through the API (encrypted as the discloser's browser does), then cloned in SQL (bulk
// INSERT … SELECT from generate_series) with spread dates, statuses, channels and labels, and 1 % (a heavy caseload)
// assigned to a handler. With BENCH_TOTAL_CASES above BENCH_CASES, BENCH_OTHER_TENANTS (default 9) more companies
// (their incident-side rows: company, labels, locations) get the rest, cloned the same way, so the measured tenant
// shares its tables and indexes with them. PGlite is one process's: the platform is stopped while the seeding
// writes to its folder, and started again on it. Requires `npm run build` first.
import pg from 'pg';
import crypto from '@whistle/crypto';
import serviceKit from '@whistle/service-kit';
import { onboard, startStandalone } from './platform.mjs';
import { signIn } from './staff-keys.mjs';
import { TEMPLATES } from './tenant-size.mjs';

const { createIncidentCredentials, encryptReportFields } = crypto;
export const CASES = Number(process.env.BENCH_CASES || 100_000);
export const BACKEND = process.env.BENCH_DATABASE === 'pglite' ? 'pglite' : 'postgres';
const TOTAL_CASES = Math.max(CASES, Number(process.env.BENCH_TOTAL_CASES || 0));
const OTHER_TENANTS = TOTAL_CASES > CASES ? Number(process.env.BENCH_OTHER_TENANTS || 9) : 0;
const SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
// The template reports come from one address, some of them sent again while the incident service does not know
// the new company yet (see seededTenant): more than the 10 an hour a client may send.
const PLATFORM_ENV = { REPORT_LIMIT_PER_CLIENT: '100' };
const BATCH = 10_000;

export async function json(response) {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}
export const post = (url, body, token) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

// The columns a clone writes: a generated one (the cases' time buckets, migration 013) takes no value.
const columnsOf = async (db, table) =>
  (
    await db.query(
      `select column_name from information_schema.columns
        where table_schema = 'incident' and table_name = $1 and is_generated = 'NEVER'
        order by ordinal_position`,
      [table],
    )
  ).rows.map((column) => column.column_name);

/**
 * Clones the measured company's first template report into cases `1..count` of `target` (the measured company
 * itself, numbered after its templates, or another tenant), in batches; 1 % assigned to `handlerId` if given.
 */
async function cloneCases(db, { companyId, target = companyId, count, handlerId = null, prefix = 'bench' }) {
  const own = target === companyId;
  // Cases spread over the last year, one every few minutes; statuses cycle; labels, channels and the handler's
  // share are drawn by a hash of the number, so none follows the dates or another.
  const first = own ? TEMPLATES : 0;
  const overrides = {
    id: 'gen_random_uuid()',
    company_id: '$5::uuid',
    location_id: own ? 't.location_id' : '(select min(id::text)::uuid from incident.location where company_id = $5)',
    display_report_number: `${first} + g`,
    retrieval_id: `'${prefix}-' || g`,
    status: `(array['NEW','ACKNOWLEDGED','ASSESSMENT','INVESTIGATION','CLOSED'])[1 + g % 5]`,
    outcome: `case when g % 5 = 4 then 'substantiated' end`,
    report_channel: `(array['online','online','telephone','internal'])[1 + abs(hashtext('channel' || g)) % 4]`,
    created_at: `now() - g * interval '5 minutes'`,
    updated_at: `now() - g * interval '5 minutes'`,
    last_activity_at: `now() - g * interval '5 minutes' + (g % 97) * interval '1 hour'`,
    // How long each clock took, spread (by a hash) as a caseload's are: acknowledged within minutes to 6 days,
    // feedback after 1 to 81 days, closed 1 to 60 days after the feedback.
    acknowledged_at: `case when g % 5 <> 0 then now() - g * interval '5 minutes'
      + (1 + abs(hashtext('ack' || g)) % (6 * 24 * 60)) * interval '1 minute' end`,
    feedback_at: `case when g % 5 >= 3 then now() - g * interval '5 minutes'
      + (24 * 60 + abs(hashtext('feedback' || g)) % (80 * 24 * 60)) * interval '1 minute' end`,
    closed_at: `case when g % 5 = 4 then now() - g * interval '5 minutes'
      + (24 * 60 + abs(hashtext('feedback' || g)) % (80 * 24 * 60)) * interval '1 minute'
      + (24 * 60 + abs(hashtext('close' || g)) % (59 * 24 * 60)) * interval '1 minute' end`,
    acknowledgement_due_at: `now() - g * interval '5 minutes' + interval '7 days'`,
    feedback_due_at: `now() - g * interval '5 minutes' + interval '7 days' + interval '3 months'`,
    resolution_due_at: `now() - g * interval '5 minutes' + interval '14 days'`,
    sort_category: `labels.names[1 + abs(hashtext((${first} + g)::text)) % cardinality(labels.names)]`,
    next_due_at: 'null',
  };
  const names = await columnsOf(db, 'incident');
  const select = names.map((name) => overrides[name] ?? `t.${name}`).join(', ');
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await db.query(
      `with t as (select * from incident.incident where company_id = $1 order by display_report_number limit 1),
            labels as (select array_agg(id order by name) as ids, array_agg(name order by name) as names
                         from incident.category where company_id = $5 and parent_id is null),
            created as (
              insert into incident.incident (${names.join(', ')})
              select ${select} from t, labels, generate_series($2::int, $3::int) g
              returning id, display_report_number, company_id),
            labelled as (
              insert into incident.incident_category (incident_id, category_id)
              select c.id, labels.ids[1 + abs(hashtext(c.display_report_number::text)) % cardinality(labels.ids)]
                from created c, labels),
            fields as (
              insert into incident.incident_field (incident_id, name, value, position)
              select c.id, f.name, f.value, f.position from created c, t
                join incident.incident_field f on f.incident_id = t.id)
       insert into incident.assignee (incident_id, user_id, company_id)
       select id, $4, company_id from created
        where $4::uuid is not null and abs(hashtext('assigned' || display_report_number)) % 100 = 0`,
      [companyId, from, to, handlerId, target],
    );
  }
  // Reports made after the seeding are numbered after the clones, as the service numbers them.
  await db.query(
    `update incident.company set next_report_number =
       (select max(display_report_number) + 1 from incident.incident where company_id = $1) where id = $1`,
    [target],
  );
}

/** Another tenant as the incident service knows it: its company row, top-level labels and locations. */
async function otherTenant(db, companyId, index) {
  const [{ id }] = (await db.query('select gen_random_uuid() as id')).rows;
  const clone = async (table, overrides, where) => {
    const names = await columnsOf(db, table);
    const select = names.map((name) => overrides[name] ?? name).join(', ');
    await db.query(
      `insert into incident.${table} (${names.join(', ')}) select ${select} from incident.${table} ${where}`,
      [companyId, id],
    );
  };
  await clone('company', { id: '$2::uuid', url_identifier: `url_identifier || '-other-${index}'` }, 'where id = $1');
  await clone(
    'category',
    { id: 'gen_random_uuid()', company_id: '$2::uuid' },
    'where company_id = $1 and parent_id is null',
  );
  await clone('location', { id: 'gen_random_uuid()', company_id: '$2::uuid' }, 'where company_id = $1');
  return id;
}

/** The measured tenant's cases, then the other tenants'; answers the seconds it took. */
async function seed(db, companyId, handlerId) {
  const started = performance.now();
  await cloneCases(db, { companyId, count: CASES, handlerId });
  for (let index = 0; index < OTHER_TENANTS; index += 1) {
    const count = Math.floor((TOTAL_CASES - CASES - TEMPLATES) / OTHER_TENANTS);
    const target = await otherTenant(db, companyId, index);
    await cloneCases(db, { companyId, target, count, prefix: `bench-other-${index}` });
    process.stderr.write(
      `seeded tenant ${index + 2} of ${OTHER_TENANTS + 1} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
    );
  }
  // What autovacuum does soon after a bulk load: statistics, and the visibility map index-only scans rely on.
  await db.query('vacuum analyze');
  return (performance.now() - started) / 1000;
}

/**
 * A database the platform runs on, and a way to write to it: `withDb(work)` runs `work(db)` with a client on it
 * (PGlite: the platform is stopped meanwhile and started again after). `api(path)` follows the running platform.
 */
async function openBackend() {
  if (BACKEND === 'pglite') {
    const { openDatabase } = serviceKit;
    let platform = await startStandalone(PLATFORM_ENV);
    const { dataDir } = platform;
    return {
      api: (path) => `${platform.baseUrl}${path}`,
      baseUrl: () => platform.baseUrl,
      dataDir,
      db: null,
      describe: `PGlite in ${dataDir}`,
      async withDb(work) {
        await platform.stop({ keepData: true });
        const db = await openDatabase({ dataDir });
        try {
          return await work(db);
        } finally {
          await db.close();
          platform = await startStandalone(PLATFORM_ENV, { dataDir });
        }
      },
      close: () => platform.stop(),
    };
  }
  const database = `whistle_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = new URL(SERVER_URL);
  databaseUrl.pathname = `/${database}`;
  const db = new pg.Client({ connectionString: databaseUrl.toString() });
  const close = async () => {
    await db.end().catch(() => undefined);
    await platform?.stop();
    // BENCH_KEEP_DATABASE=1 keeps the data for EXPLAIN by hand.
    if (process.env.BENCH_KEEP_DATABASE === '1') console.log(`kept database ${database}`);
    else await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  };
  let platform;
  try {
    platform = await startStandalone({ ...PLATFORM_ENV, DATABASE_URL: databaseUrl.toString() });
    await db.connect();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    api: (path) => `${platform.baseUrl}${path}`,
    baseUrl: () => platform.baseUrl,
    dataDir: platform.dataDir,
    db,
    describe: `PostgreSQL ${(await db.query('show server_version')).rows[0].server_version}`,
    withDb: (work) => work(db),
    close,
  };
}

/**
 * The seeded tenant: `api(path)` URLs of the platform (`baseUrl`), the company (`company`: the admin's e-mail
 * and password, its `urlIdentifier`), an ADMIN's and a HANDLER's tokens, `withDb(work)` (and on PostgreSQL a
 * client on the database, `db`), the seeding time, what it runs on (`describe`), and `close()`.
 */
export async function seededTenant() {
  const backend = await openBackend();
  const { api, withDb, close } = backend;
  try {
    const company = await onboard({ baseUrl: backend.baseUrl(), dataDir: backend.dataDir }, 0);

    // Real reports, encrypted as the discloser's browser does, to clone.
    const view = await json(await fetch(api(`/api/account/company/${company.urlIdentifier}`)));
    const category = view.categories.find((candidate) => candidate.parent_uuid === null);
    for (let i = 0; i < TEMPLATES; i += 1) {
      const credentials = await createIncidentCredentials(view.public_key);
      const report = {
        url_identifier: view.url_identifier,
        category_uuids: [category.uuid],
        location_uuid: view.locations[0].uuid,
        ...credentials.payload,
        fields: await encryptReportFields(credentials.incident.publicKey, {
          description: `Benchmark report ${i}`,
          full_name: `Reporter ${i}`,
        }),
        report_anonymously: false,
      };
      // The incident service learns of the new company from auth's event: on a loaded machine that can come after
      // onboarding answered, and the first report is refused as for an unknown company until it does.
      for (let waited = 0; ; waited += 1) {
        const answer = await post(api('/api/incident/'), report);
        if (answer.status !== 400 || waited === 60 || !(await answer.clone().text()).includes('Unknown company')) {
          await json(answer);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }

    // A handler with the admin's password hash and salt (an invitation would need the mail), announced as auth would.
    const handlerEmail = company.email.replace('admin@', 'handler@');
    const { companyId, seconds } = await withDb(async (db) => {
      const { rows: handlerRows } = await db.query(
        `insert into auth.user_profile (id, company_id, email, full_name, password_hash, kdf, kdf_salt, roles)
         select gen_random_uuid(), company_id, $2, 'Hank Handler', password_hash, kdf, kdf_salt, array['HANDLER']
           from auth.user_profile where email = $1 returning id, company_id`,
        [company.email, handlerEmail],
      );
      const [{ id: handlerId, company_id: companyId }] = handlerRows;
      await db.query(
        `insert into incident.staff_member (user_id, company_id, full_name, roles) values ($1, $2, 'Hank Handler', array['HANDLER'])`,
        [handlerId, companyId],
      );
      return { companyId, seconds: await seed(db, companyId, handlerId) };
    });
    const token = (username) => signIn(backend.baseUrl(), username, company.password);
    const [adminToken, handlerToken] = [await token(company.email), await token(handlerEmail)];
    return {
      api,
      get baseUrl() {
        return backend.baseUrl();
      },
      company,
      db: backend.db,
      withDb,
      describe: backend.describe,
      companyId,
      adminToken,
      handlerToken,
      seconds,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Runs `work` on `db` (a pg client, or PGlite's Database while the platform is stopped: one connection either way)
 * in a transaction switched to the incident schema's tenant role with `companyId` set, by the statement service-kit's
 * asTenant starts a signed-in company's transactions with; rolled back after, as it only reads.
 */
export async function asTenantOn(db, companyId, work) {
  await db.query('begin');
  try {
    await db.query(serviceKit.tenantStatement(serviceKit.tenantRoleFor('incident'), companyId));
    return await work();
  } finally {
    await db.query('rollback');
  }
}
