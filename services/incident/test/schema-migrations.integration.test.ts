import path from 'node:path';
import { rateLimitMigrations } from '@whistle/service-kit';
import { describeSchemaMigrations } from '@whistle/service-kit/testing';
import { INCIDENT_SCHEMA, incidentMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/staff/token-revocations';

describeSchemaMigrations({
  beforeFiles: path.join(__dirname, 'fixtures/migrations-before-files.json'),
  // As service.ts migrates them.
  streams: [rateLimitMigrations(INCIDENT_SCHEMA), tokenRevocations.migrations, incidentMigrations],
  changedDefinition: {
    name: 'functions/wake_deadline_scheduler.sql',
    edit: (sql) => sql.replace('begin\n', 'begin\n  -- the scheduler looks again\n'),
    live: `select pg_get_functiondef('incident.wake_deadline_scheduler'::regproc) as text`,
    changed: /begin\n {2}-- the scheduler looks again\n/,
  },
});
