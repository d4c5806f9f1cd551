import path from 'node:path';
import { describeSchemaMigrations } from '@whistle/service-kit/testing';
import { auditMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/token-revocations';

describeSchemaMigrations({
  beforeFiles: path.join(__dirname, 'fixtures/migrations-before-files.json'),
  // As service.ts migrates them.
  streams: [tokenRevocations.migrations, auditMigrations],
  changedDefinition: {
    name: 'functions/refuse_change.sql',
    edit: (sql) => sql.replace('begin\n', 'begin\n  -- the trail is append-only\n'),
    live: `select pg_get_functiondef('audit.refuse_change'::regproc) as text`,
    changed: /begin\n {2}-- the trail is append-only\n/,
  },
});
