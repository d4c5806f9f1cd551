import { randomUUID } from 'node:crypto';
import { messagingMigrations, migrate } from '@whistle/service-kit';
import { createTestDependencies, streamBefore, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { AUDIT_SCHEMA, auditMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/token-revocations';

/**
 * A database made by the code before the revocation list moved into @whistle/tokens keeps refusing what it refused:
 * its logged-out tokens and its members removed within the day survive the migration.
 */
describe.each(testStacks)('the revocation list of an existing audit database on %s', (stack) => {
  let test$: TestDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
  });
  afterAll(() => test$?.dispose());

  test('when it is migrated, then its revoked tokens and recently removed members are still refused, and its old table is gone', async () => {
    const db = test$.deps.db;
    const before = streamBefore(auditMigrations, '004');
    await migrate(db, AUDIT_SCHEMA, messagingMigrations(AUDIT_SCHEMA), before);
    const [live, expired] = [randomUUID(), randomUUID()];
    await db.query(
      `insert into audit.revoked_token (jti, expires_at) values ($1, now() + interval '10 minutes'), ($2, now() - interval '1 minute')`,
      [live, expired],
    );
    const removed = randomUUID();
    await db.query(
      `insert into audit.staff_member (user_id, company_id, full_name, removed_at) values ($1, $2, 'Removed', now() - interval '30 seconds')`,
      [removed, randomUUID()],
    );
    await migrate(db, AUDIT_SCHEMA, messagingMigrations(AUDIT_SCHEMA), tokenRevocations.migrations, auditMigrations);
    const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    expect(await tokenRevocations.isRevoked(db, { tokenId: live, userId: randomUUID(), issuedAt })).toBe(true);
    expect(await tokenRevocations.isRevoked(db, { tokenId: expired, userId: randomUUID(), issuedAt })).toBe(false);
    // A member removed 30 seconds ago: their tokens issued before stay refused.
    expect(await tokenRevocations.isRevoked(db, { userId: removed, issuedAt })).toBe(true);
    const { rows } = await db.query(`select to_regclass('audit.revoked_token') as old`);
    expect(rows[0]!.old).toBeNull();
  });
});
