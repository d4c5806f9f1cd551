import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { deriveStaffSecrets, newKdfSalt, resealPersonSecret } from '@whistle/crypto';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { kdfUpgradeBody, staffSecrets, unlockOwnKeys } from '@whistle/test-support';
import { hashPassword } from '../src/domain/account/password-hash';
import { adminPassword, onboardCompany, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const UPGRADE = '/api/account/profile/password/kdf';

describe.each(testStacks)('the password derived again with a newer kdf (argon2id-v1 → v2), on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-kdf-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-kdf-observer',
      events: ['#'],
      handle: async (event) => void published.push(event),
    });
    auth = await startAuth(test$.deps);
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  const stored = async (email: string) =>
    (
      await test$.deps.db.query<{ id: string; kdf: string; kdf_salt: string; password_hash: string }>(
        'select id, kdf, kdf_salt, password_hash from auth.user_profile where lower(email) = lower($1)',
        [email],
      )
    ).rows[0];
  const passwordCopy = async (userId: string) =>
    (
      await test$.deps.db.query<{ sealed_private_keys: string }>(
        `select sealed_private_keys from auth.unlock_method where user_id = $1 and method = 'password'`,
        [userId],
      )
    ).rows[0].sealed_private_keys;

  /**
   * An admin whose account is what the code before v2 made: salt, hash and keys' password copy of argon2id-v1
   * (the copy sealed again from the onboarding's v2 unlock key to the v1 one).
   */
  async function v1Admin() {
    const onboarded = await onboardCompany(auth);
    const row = await stored(onboarded.email);
    const [current, v1Salt] = [await staffSecrets(adminPassword, row.kdf_salt, 'argon2id-v2'), newKdfSalt()];
    const v1 = await deriveStaffSecrets(adminPassword, v1Salt, 'argon2id-v1');
    const person = onboarded.admin.publicKeys;
    const copy = await resealPersonSecret(current.unlockKey, await passwordCopy(row.id), person, v1.unlockKey);
    await test$.deps.db.transaction(async (tx) => {
      await tx.query(
        `update auth.user_profile set kdf = 'argon2id-v1', kdf_salt = $2, password_hash = $3 where id = $1`,
        [row.id, v1Salt, await hashPassword(v1.authSecret)],
      );
      await tx.query(
        `update auth.unlock_method set sealed_private_keys = $2 where user_id = $1 and method = 'password'`,
        [row.id, copy],
      );
    });
    const client = staffClient(auth.baseUrl);
    return { ...onboarded, client, userId: row.id, v1Salt };
  }

  const salt = (client: ReturnType<typeof staffClient>, username: string) =>
    client.call('POST', '/api/account/token/salt', { body: { username } });

  test('when a company is onboarded or an address is unknown, then the salt answer names argon2id-v2', async () => {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    expect((await stored(onboarded.email)).kdf).toBe('argon2id-v2');
    expect((await salt(client, onboarded.email)).body.kdf).toBe('argon2id-v2');
    expect((await salt(client, `nobody-${randomUUID().slice(0, 6)}@${onboarded.domain}`)).body.kdf).toBe('argon2id-v2');
  });

  test('when a v1 account signs in and upgrades, then it signs in again with a v2 salt, its keys open, its session lives on, and the trail says so without a secret', async () => {
    const admin = await v1Admin();
    expect((await salt(admin.client, admin.email)).body).toEqual({ kdf: 'argon2id-v1', salt: admin.v1Salt });
    const signedIn = await admin.client.login(admin.email, adminPassword);
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.token as string;
    const body = await kdfUpgradeBody(admin.client.call, token, adminPassword);

    expect((await admin.client.call('PUT', UPGRADE, { bearer: token, body })).status).toBe(204);

    const after = await stored(admin.email);
    expect(after).toMatchObject({ kdf: 'argon2id-v2', kdf_salt: body.kdf_salt });
    expect((await salt(admin.client, admin.email)).body).toEqual({ kdf: 'argon2id-v2', salt: body.kdf_salt });
    // The session of the sign-in goes on: the password did not change.
    expect((await admin.client.call('GET', '/api/account/company/profile', { bearer: token })).status).toBe(200);
    const again = await admin.client.login(admin.email, adminPassword);
    expect(again.status).toBe(200);
    const person = await unlockOwnKeys(admin.client.call, again.body.token as string, adminPassword);
    expect(person.publicKeys).toMatchObject(admin.admin.publicKeys);
    const events = published.filter((event) => event.payload.user_id === admin.userId);
    const upgraded = events.filter((event) => event.name === 'user.password_kdf_upgraded');
    expect(upgraded.map((event) => event.payload)).toEqual([{ user_id: admin.userId, kdf: 'argon2id-v2' }]);
    expect(events.some((event) => event.name === 'user.sessions_revoked')).toBe(false);

    // The same body again (a replay, or a second tab): refused, nothing changes.
    const replay = await admin.client.call('PUT', UPGRADE, { bearer: token, body });
    expect(replay.status).toBe(409);
    expect(await stored(admin.email)).toEqual(after);
    const replayWithFreshSalt = { ...body, kdf_salt: newKdfSalt() };
    expect((await admin.client.call('PUT', UPGRADE, { bearer: token, body: replayWithFreshSalt })).status).toBe(409);
    expect(await stored(admin.email)).toEqual(after);
  });

  test('when the proof is wrong or the body is bad, then nothing changes: 403, or 400 naming the field, or 401 without a session', async () => {
    const admin = await v1Admin();
    const token = (await admin.client.login(admin.email, adminPassword)).body.token as string;
    const before = await stored(admin.email);
    const copyBefore = await passwordCopy(admin.userId);
    const body = await kdfUpgradeBody(admin.client.call, token, adminPassword);
    const wrongProof = (await deriveStaffSecrets('not the password', admin.v1Salt, 'argon2id-v1')).authSecret;
    const put = (payload: unknown, bearer = token) => admin.client.call('PUT', UPGRADE, { bearer, body: payload });

    const refused = await put({ ...body, current_password: wrongProof });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'The current password is wrong' });
    // The new secret as proof is no proof either: it is not the stored one.
    expect((await put({ ...body, current_password: body.password })).status).toBe(403);

    const { sealed_private_keys: _sealed, ...withoutKeys } = body;
    const bad: [unknown, string][] = [
      [{ ...body, kdf: 'argon2id-v1' }, 'kdf'],
      [{ ...body, kdf_salt: 'short' }, 'kdf_salt'],
      [{ ...body, password: 'the password itself' }, 'password'],
      [{ ...body, sealed_private_keys: 'not sealed' }, 'sealed_private_keys'],
      [withoutKeys, 'sealed_private_keys'],
    ];
    for (const [payload, field] of bad) {
      const answer = await put(payload);
      expect([field, answer.status]).toEqual([field, 400]);
      expect(Object.keys(answer.body.errors ?? {})).toContain(field);
    }
    expect((await put(body, '')).status).toBe(401);

    expect(await stored(admin.email)).toEqual(before);
    expect(await passwordCopy(admin.userId)).toBe(copyBefore);
    expect((await salt(admin.client, admin.email)).body).toEqual({ kdf: 'argon2id-v1', salt: admin.v1Salt });
    // The right proof still works after all that.
    expect((await put(body)).status).toBe(204);
  });

  test('when a page from before v2 changes a password (no kdf in its body), then it is stored as v1 and signs in', async () => {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const token = (await client.login(onboarded.email, adminPassword)).body.token as string;
    // What such a page sends: the new password derived with v1's parameters, and no `kdf`.
    const own = (await client.call('GET', '/api/account/profile/keys', { bearer: token })).body;
    const [previous, v1Salt] = [await staffSecrets(adminPassword, own.password.salt, own.password.kdf), newKdfSalt()];
    const fresh = await deriveStaffSecrets('a new password 5678', v1Salt, 'argon2id-v1');
    const copy = await passwordCopy((await stored(onboarded.email)).id);
    const body = {
      password: fresh.authSecret,
      kdf_salt: v1Salt,
      current_password: previous.authSecret,
      sealed_private_keys: await resealPersonSecret(
        previous.unlockKey,
        copy,
        onboarded.admin.publicKeys,
        fresh.unlockKey,
      ),
    };
    expect((await client.call('PUT', '/api/account/profile', { bearer: token, body })).status).toBe(200);
    expect((await stored(onboarded.email)).kdf).toBe('argon2id-v1');
    expect((await salt(client, onboarded.email)).body).toEqual({ kdf: 'argon2id-v1', salt: v1Salt });
    expect((await client.login(onboarded.email, 'a new password 5678')).status).toBe(200);
  });
});
