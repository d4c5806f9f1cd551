import path from 'node:path';
import { describeSchemaMigrations } from '@whistle/service-kit/testing';
import { notificationMigrations } from '../src/data-access/migrations';

describeSchemaMigrations({
  beforeFiles: path.join(__dirname, 'fixtures/migrations-before-files.json'),
  // As service.ts migrates them.
  streams: [notificationMigrations],
});
