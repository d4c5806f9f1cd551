import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server tests use: `DATABASE_URL`, else the local server's `test` database. */
export function testDatabaseUrl(): string {
  return process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
}

export interface TestDatabase {
  /** Connection string of a fresh, empty database. */
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named database on the test server so a test file (or a parallel run) has its own.
 * Drop it in `afterAll`.
 */
export async function createTestDatabase(baseUrl: string = testDatabaseUrl()): Promise<TestDatabase> {
  const name = `whistle_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
