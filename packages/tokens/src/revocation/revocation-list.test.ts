import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { eventHandlers, migrate } from '@whistle/service-kit';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { revocationListFor } from './revocation-list';

const SCHEMA = 'verifier';
const list = revocationListFor(SCHEMA);
/** The list fed as a service's consumer feeds it. */
const revoking = eventHandlers(list.handlers);
const second = (at: number) => new Date(Math.floor(at / 1000) * 1000);

function event(name: string, payload: Record<string, unknown>): EventEnvelope {
  return {
    id: randomUUID(),
    name,
    version: 1,
    company_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    payload,
  };
}

describe.each(testStacks)('the revocation list on %s', (stack) => {
  let test$: TestDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
    await migrate(test$.deps.db, SCHEMA, list.migrations);
  });
  afterAll(() => test$?.dispose());

  test('when a token is logged out, then that token is refused and the user’s other tokens are not', async () => {
    const db = test$.deps.db;
    const userId = randomUUID();
    const [loggedOut, other] = [randomUUID(), randomUUID()];
    await revoking.handle(
      db,
      event('token.revoked', {
        jti: loggedOut,
        user_id: userId,
        expires_at: new Date(Date.now() + 60_000).toISOString(),
      }),
    );
    const issuedAt = second(Date.now());
    expect(await list.isRevoked(db, { tokenId: loggedOut, userId, issuedAt })).toBe(true);
    expect(await list.isRevoked(db, { tokenId: other, userId, issuedAt })).toBe(false);
    expect(await list.revokeToken(db, loggedOut, new Date(Date.now() + 60_000))).toBe(false);
  });

  test('when a user’s sessions are revoked, then tokens issued before that second are refused and later ones kept', async () => {
    const db = test$.deps.db;
    const userId = randomUUID();
    const at = Date.UTC(2030, 0, 1, 12, 0, 0, 300);
    await revoking.handle(
      db,
      event('user.sessions_revoked', {
        user_id: userId,
        not_before: new Date(at).toISOString(),
        reason: 'password_changed',
      }),
    );
    expect(await list.isRevoked(db, { tokenId: randomUUID(), userId, issuedAt: second(at - 1000) })).toBe(true);
    // The token auth hands back with the new password is issued in the same second: kept.
    expect(await list.isRevoked(db, { tokenId: randomUUID(), userId, issuedAt: second(at) })).toBe(false);
    expect(await list.isRevoked(db, { userId: randomUUID(), issuedAt: second(at - 1000) })).toBe(false);
    // An older event arriving late never moves the cut-off back.
    await list.revokeUserSessions(db, userId, new Date(at - 60_000));
    expect(await list.isRevoked(db, { tokenId: randomUUID(), userId, issuedAt: second(at - 1000) })).toBe(true);
  });

  test('when a user is removed, then every token issued up to the second of the removal is refused', async () => {
    const db = test$.deps.db;
    const userId = randomUUID();
    const at = Date.UTC(2030, 0, 1, 12, 0, 0, 300);
    await revoking.handle(db, event('user.deleted', { user_id: userId, deleted_at: new Date(at).toISOString() }));
    expect(await list.isRevoked(db, { userId, issuedAt: second(at) })).toBe(true);
    expect(await list.isRevoked(db, { userId, issuedAt: second(at + 1000) })).toBe(false);
  });

  test('when revocations are past any token they refuse, then they are forgotten and live ones are kept', async () => {
    const db = test$.deps.db;
    const [old, live] = [randomUUID(), randomUUID()];
    const userId = randomUUID();
    await list.revokeToken(db, old, new Date(Date.now() - 1000));
    await list.revokeToken(db, live, new Date(Date.now() + 60_000));
    await list.revokeUserSessions(db, userId, new Date(Date.now() - 2 * 24 * 60 * 60 * 1000));
    await list.removeExpired(db);
    const { rows } = await db.query<{ jti: string }>(`select jti from ${SCHEMA}.token_revocation where jti = any($1)`, [
      [old, live],
    ]);
    expect(rows.map((row) => row.jti)).toEqual([live]);
    const users = await db.query(`select 1 from ${SCHEMA}.user_session_revocation where user_id = $1`, [userId]);
    expect(users.rows).toEqual([]);
  });
});
