import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readSchemaFiles } from '../../src/database';

describe('readSchemaFiles', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'whistle-schema-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  async function write(file: string, text: string): Promise<void> {
    await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
    await writeFile(path.join(folder, file), text);
  }

  test('when a schema has migrations and definitions, then the migrations are its history by file name and the definitions come functions first, then views, then triggers', async () => {
    await write('migrations/002_more.sql', 'alter table s.t add column b int;\n');
    await write('migrations/001_t.sql', 'create table s.t (a int);\n');
    await write('sql/triggers/t_touched.sql', 'create or replace trigger …');
    await write('sql/views/t_view.sql', 'create or replace view …');
    await write('sql/functions/touch.sql', 'create or replace function …');
    await write('sql/functions/README.md', 'not SQL: not read');
    expect(readSchemaFiles('s', folder)).toEqual({
      name: 's',
      migrations: [
        { id: '001_t', sql: 'create table s.t (a int);\n' },
        { id: '002_more', sql: 'alter table s.t add column b int;\n' },
      ],
      repeatables: [
        { name: 'functions/touch.sql', sql: 'create or replace function …' },
        { name: 'views/t_view.sql', sql: 'create or replace view …' },
        { name: 'triggers/t_touched.sql', sql: 'create or replace trigger …' },
      ],
    });
  });

  test('when a migration file is not named NNN_name.sql, then it is refused', async () => {
    await write('migrations/001_t.sql', 'create table s.t (a int);');
    await write('migrations/2-more.sql', 'select 1;');
    expect(() => readSchemaFiles('s', folder)).toThrow(/2-more\.sql: a migration's name is NNN_name\.sql/);
  });

  test('when there is no migration, then it is refused: the folder is wrong', () => {
    expect(() => readSchemaFiles('s', folder)).toThrow(/No migration in .*migrations/);
  });
});
