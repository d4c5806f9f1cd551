import path from 'node:path';
import { rateLimitMigrations } from '@whistle/service-kit';
import { describeSchemaMigrations } from '@whistle/service-kit/testing';
import { FILE_SCHEMA, fileMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/token-revocations';

describeSchemaMigrations({
  beforeFiles: path.join(__dirname, 'fixtures/migrations-before-files.json'),
  // As service.ts migrates them.
  streams: [rateLimitMigrations(FILE_SCHEMA), tokenRevocations.migrations, fileMigrations],
});
