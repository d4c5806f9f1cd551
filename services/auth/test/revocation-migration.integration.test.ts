import { randomUUID } from 'node:crypto';
import { messagingMigrations, migrate, rateLimitMigrations } from '@whistle/service-kit';
import { createTestDependencies, streamBefore, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { AUTH_SCHEMA, authMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/account/token-revocations';

/**
 * A database made by the code before the revocation list moved into @whistle/tokens keeps refusing what it refused:
 * its logged-out tokens survive the migration.
 */
describe.each(testStacks)('the revocation list of an existing auth database on %s', (stack) => {
  let test$: TestDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
  });
  afterAll(() => test$?.dispose());

  test('when it is migrated, then its revoked tokens are still refused, and its old table is gone', async () => {
    const db = test$.deps.db;
    const before = streamBefore(authMigrations, '009');
    await migrate(db, AUTH_SCHEMA, messagingMigrations(AUTH_SCHEMA), rateLimitMigrations(AUTH_SCHEMA), before);
    const [live, expired] = [randomUUID(), randomUUID()];
    await db.query(
      `insert into auth.revoked_token (jti, user_id, expires_at) values ($1, $3, now() + interval '10 minutes'), ($2, $3, now() - interval '1 minute')`,
      [live, expired, randomUUID()],
    );
    await migrate(
      db,
      AUTH_SCHEMA,
      messagingMigrations(AUTH_SCHEMA),
      rateLimitMigrations(AUTH_SCHEMA),
      tokenRevocations.migrations,
      authMigrations,
    );
    const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    expect(await tokenRevocations.isRevoked(db, { tokenId: live, userId: randomUUID(), issuedAt })).toBe(true);
    expect(await tokenRevocations.isRevoked(db, { tokenId: expired, userId: randomUUID(), issuedAt })).toBe(false);

    const { rows } = await db.query(`select to_regclass('auth.revoked_token') as old`);
    expect(rows[0]!.old).toBeNull();
  });
});
