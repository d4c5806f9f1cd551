import { randomUUID } from 'node:crypto';
import { messagingMigrations, migrate, rateLimitMigrations } from '@whistle/service-kit';
import { createTestDependencies, streamBefore, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { INCIDENT_SCHEMA, incidentMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/staff/token-revocations';

/**
 * A database made by the code before the revocation list moved into @whistle/tokens keeps refusing what it refused:
 * its logged-out tokens and its members removed within the day survive the migration.
 */
describe.each(testStacks)('the revocation list of an existing incident database on %s', (stack) => {
  let test$: TestDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
  });
  afterAll(() => test$?.dispose());

  test('when it is migrated, then its revoked tokens and recently removed members are still refused, and its old table is gone', async () => {
    const db = test$.deps.db;
    const before = streamBefore(incidentMigrations, '015');
    await migrate(
      db,
      INCIDENT_SCHEMA,
      messagingMigrations(INCIDENT_SCHEMA),
      rateLimitMigrations(INCIDENT_SCHEMA),
      before,
    );
    const [live, expired] = [randomUUID(), randomUUID()];
    await db.query(
      `insert into incident.revoked_token (jti, expires_at) values ($1, now() + interval '10 minutes'), ($2, now() - interval '1 minute')`,
      [live, expired],
    );
    const removed = randomUUID();
    await db.query(
      `insert into incident.staff_member (user_id, company_id, full_name, roles, removed_at) values ($1, $2, 'Removed', '{HANDLER}', now() - interval '30 seconds')`,
      [removed, randomUUID()],
    );
    await migrate(
      db,
      INCIDENT_SCHEMA,
      messagingMigrations(INCIDENT_SCHEMA),
      rateLimitMigrations(INCIDENT_SCHEMA),
      tokenRevocations.migrations,
      incidentMigrations,
    );
    const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    expect(await tokenRevocations.isRevoked(db, { tokenId: live, userId: randomUUID(), issuedAt })).toBe(true);
    expect(await tokenRevocations.isRevoked(db, { tokenId: expired, userId: randomUUID(), issuedAt })).toBe(false);
    // A member removed 30 seconds ago: their tokens issued before stay refused.
    expect(await tokenRevocations.isRevoked(db, { userId: removed, issuedAt })).toBe(true);
    const { rows } = await db.query(`select to_regclass('incident.revoked_token') as old`);
    expect(rows[0]!.old).toBeNull();
  });
});
