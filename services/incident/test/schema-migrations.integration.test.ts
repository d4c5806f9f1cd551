import { readFileSync } from 'node:fs';
import path from 'node:path';
import { messagingMigrations, migrate, rateLimitMigrations, type Queryable } from '@whistle/service-kit';
import {
  createTestDependencies,
  describeSchemaMigrations,
  migrateAsBeforeFiles,
  testStacks,
  type MigrationsBeforeFiles,
} from '@whistle/service-kit/testing';
import { INCIDENT_SCHEMA, incidentMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/staff/token-revocations';

const beforeFiles = path.join(__dirname, 'fixtures/migrations-before-files.json');
// As service.ts migrates them.
const streams = [rateLimitMigrations(INCIDENT_SCHEMA), tokenRevocations.migrations, incidentMigrations];

describeSchemaMigrations({
  beforeFiles,
  streams,
  changedDefinition: {
    name: 'functions/wake_deadline_scheduler.sql',
    edit: (sql) => sql.replace('begin\n', 'begin\n  -- the scheduler looks again\n'),
    live: `select pg_get_functiondef('incident.wake_deadline_scheduler'::regproc) as text`,
    changed: /begin\n {2}-- the scheduler looks again\n/,
  },
});

const COMPANY = '7c1f0b1e-0000-4000-8000-000000000001';
const LOCATION = '7c1f0b1e-0000-4000-8000-000000000002';
const [LABEL, SUB_LABEL] = ['7c1f0b1e-0000-4000-8000-000000000003', '7c1f0b1e-0000-4000-8000-000000000004'];
const CASE = '7c1f0b1e-0000-4000-8000-000000000005';

/** A company and a labelled case received on 5 January, as the service writes them (the clocks' due times set). */
async function receiveCase(db: Queryable): Promise<void> {
  await db.query(`insert into incident.company (id, url_identifier) values ($1, 'acme')`, [COMPANY]);
  await db.query(`insert into incident.location (id, company_id, name, is_active) values ($1, $2, 'HQ', true)`, [
    LOCATION,
    COMPANY,
  ]);
  await db.query(
    `insert into incident.category (id, company_id, parent_id, name, is_active)
     values ($1, $3, null, 'Fraud', true), ($2, $3, $1, 'Invoices', true)`,
    [LABEL, SUB_LABEL, COMPANY],
  );
  await db.query(
    `insert into incident.incident (id, company_id, display_report_number, retrieval_id, report_channel,
       report_anonymously, location_id, public_key, aes_encrypted_private_key, aes_salt, aes_iv,
       company_encrypted_passphrase, discloser_encrypted_passphrase, discloser_auth_token_hash, created_at,
       acknowledgement_due_at, feedback_due_at, resolution_due_at)
     values ($1, $2, 1, 'r-1', 'online', true, $3, 'pk', 'k', 's', 'iv', 'c', 'd', 'h', '2026-01-05T10:00:00Z',
       '2026-01-12T10:00:00Z', '2026-04-12T10:00:00Z', '2026-01-19T10:00:00Z')`,
    [CASE, COMPANY, LOCATION],
  );
  await db.query(`insert into incident.incident_category (incident_id, category_id) values ($1, $2)`, [
    CASE,
    SUB_LABEL,
  ]);
}

/** The case handled: acknowledged late, closed, its label taken; then what the triggers made of it. */
async function handleCase(db: Queryable): Promise<unknown> {
  await db.query(`update incident.incident set status = 'ACKNOWLEDGED', acknowledged_at = $2 where id = $1`, [
    CASE,
    '2026-01-14T09:00:00Z',
  ]);
  await db.query(
    `update incident.incident set status = 'CLOSED', outcome = 'referred', closed_at = $2, feedback_at = $2
      where id = $1`,
    [CASE, '2026-02-01T09:00:00Z'],
  );
  await db.query(`delete from incident.incident_category where incident_id = $1`, [CASE]);
  const { rows: clocks } = await db.query(
    `select next_due_at, purge_at, deadline_check_at is null as unwatched, ack_time_bucket, close_time_bucket
       from incident.incident where id = $1`,
    [CASE],
  );
  const { rows: figures } = await db.query(
    `select day::text, dimension, value, sum(change)::int as change from incident.reporting_delta
      group by 1, 2, 3 having sum(change) <> 0 order by 1, 2, 3`,
  );
  return { clocks, figures };
}

describe.each(testStacks)('an incident database made before migration files, with a case in it, on %s', (stack) => {
  test('when it is migrated and the case is handled, then its clocks and figures are those of a new database', async () => {
    const before = JSON.parse(readFileSync(beforeFiles, 'utf8')) as MigrationsBeforeFiles;
    const old = await createTestDependencies(stack);
    const fresh = await createTestDependencies(stack);
    try {
      await migrateAsBeforeFiles(old.deps.db, before);
      await receiveCase(old.deps.db);
      await migrate(old.deps.db, INCIDENT_SCHEMA, messagingMigrations(INCIDENT_SCHEMA), ...streams);
      await migrate(fresh.deps.db, INCIDENT_SCHEMA, messagingMigrations(INCIDENT_SCHEMA), ...streams);
      await receiveCase(fresh.deps.db);
      const handled = await handleCase(old.deps.db);
      expect(handled).toEqual(await handleCase(fresh.deps.db));
      // The triggers did their work: a closed case has no running clock and a deletion date; its figures moved.
      expect(handled).toMatchObject({
        clocks: [{ next_due_at: null, unwatched: true, purge_at: expect.anything() }],
        figures: expect.arrayContaining([{ day: '2026-01-05', dimension: 'ack', value: 'late', change: 1 }]),
      });
    } finally {
      await old.dispose();
      await fresh.dispose();
    }
  });
});
