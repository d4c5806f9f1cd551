// What the case benchmarks share: one tenant with BENCH_CASES cases (default 100,000) on PostgreSQL, served by the
// built standalone platform. Real reports are made through the API (encrypted as the discloser's browser does),
// then cloned in SQL (bulk INSERT … SELECT from generate_series) with spread dates, statuses, channels and labels,
// and 1 % (a heavy caseload) assigned to a handler. A database of its own is created, and dropped by `close()`
// unless BENCH_KEEP_DATABASE=1. Requires `npm run build` first and a PostgreSQL server (BENCH_DATABASE_URL,
// default the loopback one).
import pg from 'pg';
import crypto from '@whistle/crypto';
import { onboard, startStandalone } from './platform.mjs';

const { createIncidentCredentials, encryptFields } = crypto;
export const CASES = Number(process.env.BENCH_CASES || 100_000);
const SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const TEMPLATES = 10;
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

/** Clones the template reports into `CASES` cases of the company, in batches; answers the seconds it took. */
async function seed(db, companyId, handlerId) {
  const { rows: columns } = await db.query(
    `select column_name from information_schema.columns where table_schema = 'incident' and table_name = 'incident'
      order by ordinal_position`,
  );
  // Cases spread over the last year, one every few minutes; statuses cycle; labels, channels and the handler's
  // share are drawn by a hash of the number, so none follows the dates or another.
  const overrides = {
    id: 'gen_random_uuid()',
    display_report_number: `${TEMPLATES} + g`,
    retrieval_id: `'bench-' || g`,
    status: `(array['NEW','ACKNOWLEDGED','ASSESSMENT','INVESTIGATION','CLOSED'])[1 + g % 5]`,
    outcome: `case when g % 5 = 4 then 'substantiated' end`,
    report_channel: `(array['online','online','telephone','internal'])[1 + abs(hashtext('channel' || g)) % 4]`,
    created_at: `now() - g * interval '5 minutes'`,
    updated_at: `now() - g * interval '5 minutes'`,
    last_activity_at: `now() - g * interval '5 minutes' + (g % 97) * interval '1 hour'`,
    acknowledged_at: `case when g % 5 <> 0 then now() - g * interval '5 minutes' + interval '1 day' end`,
    feedback_at: `case when g % 5 >= 3 then now() - g * interval '5 minutes' + interval '20 days' end`,
    closed_at: `case when g % 5 = 4 then now() - g * interval '5 minutes' + interval '30 days' end`,
    acknowledgement_due_at: `now() - g * interval '5 minutes' + interval '7 days'`,
    feedback_due_at: `now() - g * interval '5 minutes' + interval '7 days' + interval '3 months'`,
    resolution_due_at: `now() - g * interval '5 minutes' + interval '14 days'`,
    sort_category: `labels.names[1 + abs(hashtext((${TEMPLATES} + g)::text)) % cardinality(labels.names)]`,
    next_due_at: 'null',
  };
  const names = columns.map((column) => column.column_name);
  const select = names.map((name) => overrides[name] ?? `t.${name}`).join(', ');
  const started = performance.now();
  for (let from = 1; from <= CASES; from += BATCH) {
    const to = Math.min(CASES, from + BATCH - 1);
    await db.query(
      `with t as (select * from incident.incident where company_id = $1 order by display_report_number limit 1),
            labels as (select array_agg(id order by name) as ids, array_agg(name order by name) as names
                         from incident.category where company_id = $1 and parent_id is null),
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
       select id, $4, company_id from created where abs(hashtext('assigned' || display_report_number)) % 100 = 0`,
      [companyId, from, to, handlerId],
    );
  }
  // What autovacuum does soon after a bulk load: statistics, and the visibility map index-only scans rely on.
  await db.query('vacuum analyze');
  return (performance.now() - started) / 1000;
}

/**
 * The seeded tenant: `api(path)` URLs of the platform, an ADMIN's and a HANDLER's tokens, a client on the
 * database (`db`), the seeding time, and `close()`.
 */
export async function seededTenant() {
  const database = `whistle_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = new URL(SERVER_URL);
  databaseUrl.pathname = `/${database}`;
  const platform = await startStandalone({ DATABASE_URL: databaseUrl.toString() });
  const db = new pg.Client({ connectionString: databaseUrl.toString() });
  const close = async () => {
    await db.end().catch(() => undefined);
    await platform.stop();
    // BENCH_KEEP_DATABASE=1 keeps the data for EXPLAIN by hand.
    if (process.env.BENCH_KEEP_DATABASE === '1') console.log(`kept database ${database}`);
    else await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  };
  try {
    await db.connect();
    const company = await onboard(platform.baseUrl, 0);
    const api = (path) => `${platform.baseUrl}${path}`;
    const adminToken = (
      await json(await post(api('/api/account/token'), { username: company.email, password: company.password }))
    ).token;

    // A handler with the admin's password hash (an invitation would need the mail), announced as auth would.
    const handlerEmail = company.email.replace('admin@', 'handler@');
    const { rows: handlerRows } = await db.query(
      `insert into auth.user_profile (id, company_id, email, full_name, password_hash, roles)
       select gen_random_uuid(), company_id, $2, 'Hank Handler', password_hash, array['HANDLER'] from auth.user_profile
        where email = $1 returning id, company_id`,
      [company.email, handlerEmail],
    );
    const [{ id: handlerId, company_id: companyId }] = handlerRows;
    await db.query(
      `insert into incident.staff_member (user_id, company_id, full_name, roles) values ($1, $2, 'Hank Handler', array['HANDLER'])`,
      [handlerId, companyId],
    );
    const handlerToken = (
      await json(await post(api('/api/account/token'), { username: handlerEmail, password: company.password }))
    ).token;

    // Real reports, encrypted as the discloser's browser does, to clone.
    const view = await json(await fetch(api(`/api/account/company/${company.urlIdentifier}`)));
    const category = view.categories.find((candidate) => candidate.parent_uuid === null);
    for (let i = 0; i < TEMPLATES; i += 1) {
      const credentials = await createIncidentCredentials(view.public_key);
      await json(
        await post(api('/api/incident/'), {
          url_identifier: view.url_identifier,
          category_uuids: [category.uuid],
          location_uuid: view.locations[0].uuid,
          ...credentials.payload,
          fields: await encryptFields(credentials.incident.publicKey, {
            description: `Benchmark report ${i}`,
            full_name: `Reporter ${i}`,
          }),
          report_anonymously: false,
        }),
      );
    }
    const seconds = await seed(db, companyId, handlerId);
    return { api, db, companyId, adminToken, handlerToken, seconds, close };
  } catch (error) {
    await close();
    throw error;
  }
}
