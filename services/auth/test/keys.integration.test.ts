/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomBytes, randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { EventEnvelope } from '@whistle/contracts';
import {
  companyFingerprint,
  createCompanyCredentials,
  createPersonKeys,
  createRecoveryKey,
  deriveStaffSecrets,
  grantCompanyKey,
  newKdfSalt,
  openCompanyKeyGrant,
  openCompanyKeyWithRecovery,
  openLegacyCompanySecret,
  personFingerprint,
  sealCompanyKeyForRecovery,
  sealPersonSecret,
  type PersonKeys,
} from '@whistle/crypto';
import { SmtpMailer } from '@whistle/mailer';
import { InProcessEventBus } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { recipientOf, startSmtpCatcher, unlockOwnKeys, type SmtpCatcher } from '@whistle/test-support';
import { adminPassword, onboardCompany, passwordLinkTokenIn, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const memberPassword = 'member password 5678';
const OUTDATED = 'This page is out of date: reload it and try again';
const linkToken = passwordLinkTokenIn;

describe.each(testStacks)('keys held by people, in the auth service, on %s', (stack) => {
  let test$: TestDependencies;
  let smtp: SmtpCatcher;
  let mailer: SmtpMailer;
  let auth: RunningAuth;
  const kek = randomBytes(32).toString('base64');
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-keys-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-keys-observer',
      events: ['#'],
      handle: async (event) => void published.push(event),
    });
    smtp = await startSmtpCatcher();
    mailer = new SmtpMailer(smtp.url, 'Whistle <no-reply@whistle.test>');
    auth = await startAuth({ ...test$.deps, mailer }, { KEY_ENCRYPTION_KEY: kek });
  });
  afterAll(async () => {
    await auth?.close();
    await mailer?.close();
    await smtp?.close();
    await test$?.dispose();
  });

  const eventsOf = (name: string, companyId: string) =>
    published.filter((event) => event.name === name && event.company_id === companyId);

  /** A company and its admin signed in with their keys unlocked. */
  async function company() {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const adminToken = (await client.login(onboarded.email, adminPassword)).body.token as string;
    const own = await client.call('GET', '/api/account/company/', { bearer: adminToken });
    return { ...onboarded, client, adminToken, companyId: own.body.uuid as string };
  }

  /** A member invited with `roles` who chose a password (and so made keys) through the invitation link. */
  async function invite(co: Awaited<ReturnType<typeof company>>, roles: string[], name = 'Bea') {
    const email = `${name.toLowerCase()}-${randomUUID().slice(0, 6)}@${co.domain}`;
    const invited = await co.client.call('POST', '/api/account/company/user_profile/', {
      bearer: co.adminToken,
      body: { email, full_name: `${name} Member`, roles },
    });
    expect(invited.status).toBe(201);
    const mail = await smtp.waitFor((m) => recipientOf(m) === email, 'invitation');
    expect((await co.client.acceptLink(linkToken(mail.text!), memberPassword)).status).toBe(204);
    const token = (await co.client.login(email, memberPassword)).body.token as string;
    const person = await unlockOwnKeys(co.client.call, token, memberPassword);
    return { email, userId: invited.body.uuid as string, token, person };
  }

  /** The company key as an admin's browser opens it, and what it hands on to another admin after comparing. */
  async function approve(co: Awaited<ReturnType<typeof company>>, recipient: { userId: string; person: PersonKeys }) {
    const keys = (await co.client.call('GET', '/api/account/company/keys', { bearer: co.adminToken })).body;
    const secret = await openCompanyKeyGrant(co.admin, keys.grant, keys.public_key);
    return {
      user_id: recipient.userId,
      key_version: keys.key_version as number,
      fingerprint: await personFingerprint(recipient.person.publicKeys),
      grant: await grantCompanyKey(secret, keys.public_key, recipient.person.publicKeys.public_key),
    };
  }

  test('when any address asks for its salt, then a known one gets its own, an unknown one a stable salt of its own, and neither says which exists', async () => {
    const co = await company();
    const salt = async (username: string) =>
      (await co.client.call('POST', '/api/account/token/salt', { body: { username } })).body;
    const own = await salt(co.email);
    const { rows } = await test$.deps.db.query<{ kdf_salt: string }>(
      'select kdf_salt from auth.user_profile where lower(email) = lower($1)',
      [co.email],
    );
    expect(own).toEqual({ kdf: 'argon2id-v2', salt: rows[0].kdf_salt });
    const ghost = `ghost@${co.domain}`;
    const first = await salt(ghost);
    expect(first).toEqual({ kdf: 'argon2id-v2', salt: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    expect(await salt(ghost.toUpperCase())).toEqual(first);
    expect((await salt(`other@${co.domain}`)).salt).not.toBe(first.salt);
    // A sign-in with a secret derived from the fake salt is only a wrong password.
    const secret = (await deriveStaffSecrets('whatever it is', first.salt)).authSecret;
    const answer = await co.client.call('POST', '/api/account/token', { body: { username: ghost, password: secret } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Invalid email or password' });
  });

  test('when the login sends the password itself for an account that derives it, then 400 says the page is out of date, and no token', async () => {
    const co = await company();
    const answer = await co.client.call('POST', '/api/account/token', {
      body: { username: co.email, password: adminPassword },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(OUTDATED);
    expect(answer.body.token).toBeUndefined();
  });

  describe('an account and a company from before people held keys', () => {
    /** What the code before this change stored: a plaintext-password hash, a company key under a KEK-wrapped passphrase. */
    async function legacyCompany() {
      const companyId = randomUUID();
      const userId = randomUUID();
      const domain = `old-${randomUUID().slice(0, 8)}.example`;
      const email = `admin@${domain}`;
      const { credential, passphrase } = await createCompanyCredentials();
      const { KeyEncryptionKey } = await import('../src/domain/secrets/key-encryption');
      const wrapped = KeyEncryptionKey.fromBase64(kek).wrap(passphrase, companyId);
      await test$.deps.db.transaction(async (tx) => {
        await tx.query(
          `insert into auth.company (id, url_identifier, name, country, email_domain, public_key, aes_encrypted_private_key, wrapped_passphrase)
           values ($1, $2, 'Oldco', 'FR', $3, $4, $5, $6)`,
          [
            companyId,
            `oldco-${companyId.slice(0, 8)}`,
            domain,
            credential.public_key,
            credential.aes_encrypted_private_key,
            wrapped,
          ],
        );
        await tx.query(
          `insert into auth.company_key (company_id, version, public_key, recovery_sealed_private_key, state)
           values ($1, 1, $2, null, 'current')`,
          [companyId, credential.public_key],
        );
        await tx.query(
          `insert into auth.user_profile (id, company_id, email, full_name, password_hash, roles)
           values ($1, $2, $3, 'Old Admin', $4, array['ADMIN'])`,
          [userId, companyId, email, await hash(adminPassword, { algorithm: 2 })],
        );
      });
      return { companyId, userId, email, credential, passphrase };
    }

    test('when its admin signs in, then the page migrates the password once, makes keys, moves the company key to them and a recovery kit, and the server forgets the old way', async () => {
      const old = await legacyCompany();
      const client = staffClient(auth.baseUrl);
      expect((await client.call('POST', '/api/account/token/salt', { body: { username: old.email } })).body).toEqual({
        kdf: 'legacy',
      });
      // The last sign-in with the password itself, carrying what the account knows from now on.
      const kdfSalt = newKdfSalt();
      const { authSecret, unlockKey } = await deriveStaffSecrets(adminPassword, kdfSalt);
      const signedIn = await client.call('POST', '/api/account/token', {
        body: {
          username: old.email,
          password: adminPassword,
          upgrade: { kdf: 'argon2id-v2', kdf_salt: kdfSalt, auth_secret: authSecret },
        },
      });
      expect(signedIn.status).toBe(200);
      const token = signedIn.body.token as string;
      expect((await client.call('POST', '/api/account/token/salt', { body: { username: old.email } })).body).toEqual({
        kdf: 'argon2id-v2',
        salt: kdfSalt,
      });
      expect(
        (await client.call('POST', '/api/account/token', { body: { username: old.email, password: adminPassword } }))
          .status,
      ).toBe(400);
      expect((await client.login(old.email, adminPassword)).status).toBe(200);

      // The page makes the admin's keys, sealed under the password's unlock key.
      const { publicKeys, secret } = await createPersonKeys();
      const made = await client.call('PUT', '/api/account/profile/keys', {
        bearer: token,
        body: {
          ...publicKeys,
          unlock: { method: 'password', sealed_private_keys: await sealPersonSecret(unlockKey, secret, publicKeys) },
        },
      });
      expect(made.status).toBe(201);
      const admin = await unlockOwnKeys(client.call, token, adminPassword);

      // Once, the old way: the admin's browser opens the key, wraps it to the admin and to a new recovery kit.
      const keys = (await client.call('GET', '/api/account/company/keys', { bearer: token })).body;
      expect(keys.legacy).toEqual({
        aes_encrypted_private_key: old.credential.aes_encrypted_private_key,
        passphrase: old.passphrase,
      });
      const companySecret = await openLegacyCompanySecret(keys.legacy);
      const recovery = await createRecoveryKey();
      const migration = {
        grant: await grantCompanyKey(companySecret, old.credential.public_key, admin.publicKeys.public_key),
        aes_encrypted_private_key: await sealCompanyKeyForRecovery(recovery, companySecret, old.credential.public_key),
      };
      expect(
        (await client.call('POST', '/api/account/company/keys/migration', { bearer: token, body: migration })).status,
      ).toBe(204);
      expect(
        (await client.call('POST', '/api/account/company/keys/migration', { bearer: token, body: migration })).status,
      ).toBe(409);

      const { rows } = await test$.deps.db.query<{
        wrapped_passphrase: string | null;
        aes_encrypted_private_key: string | null;
      }>('select wrapped_passphrase, aes_encrypted_private_key from auth.company where id = $1', [old.companyId]);
      expect(rows).toEqual([{ wrapped_passphrase: null, aes_encrypted_private_key: null }]);
      const after = (await client.call('GET', '/api/account/company/keys', { bearer: token })).body;
      expect(after.legacy).toBeNull();
      await expect(openCompanyKeyGrant(admin, after.grant, after.public_key)).resolves.toBeDefined();
      await expect(
        openCompanyKeyWithRecovery(recovery, after.recovery.aes_encrypted_private_key, after.public_key),
      ).resolves.toBeDefined();
      await waitFor(() => eventsOf('company.keys_migrated', old.companyId).length === 1, {
        what: 'the migration event',
      });
      expect(eventsOf('company.keys_migrated', old.companyId)[0].payload).toEqual({
        key_version: 1,
        fingerprint: await companyFingerprint(old.credential.public_key),
      });
    });

    test('when the migration window has closed, then a password from before is refused with a clear way out', async () => {
      const old = await legacyCompany();
      // A second instance, with a bus of its own: the running one already consumes as `auth`.
      const bus = new InProcessEventBus({ logger: test$.deps.logger });
      const closed = await startAuth(
        { ...test$.deps, bus },
        { KEY_ENCRYPTION_KEY: kek, LEGACY_PASSWORD_SIGN_IN_UNTIL: new Date(Date.now() - 1000).toISOString() },
      );
      try {
        const client = staffClient(closed.baseUrl);
        const salt = await client.call('POST', '/api/account/token/salt', { body: { username: old.email } });
        expect(salt.body.kdf).toBe('argon2id-v2');
        const answer = await client.call('POST', '/api/account/token', {
          body: { username: old.email, password: adminPassword },
        });
        expect(answer.status).toBe(400);
        expect(answer.body.message).toBe(
          'Sign-in with a password from before has ended: reset your password by e-mail',
        );
      } finally {
        await closed.close();
        await bus.close();
      }
    });
  });

  test('when a second admin is invited, then they have keys but no company key until they ask and another admin approves after comparing fingerprints', async () => {
    const co = await company();
    const second = await invite(co, ['ADMIN'], 'Bob');
    const theirs = (await co.client.call('GET', '/api/account/company/keys', { bearer: second.token })).body;
    expect(theirs).toMatchObject({ grant: null, legacy: null, access_request: null });

    const asked = await co.client.call('POST', '/api/account/company/keys/requests', { bearer: second.token });
    expect(asked.status).toBe(201);
    const people = (await co.client.call('GET', '/api/account/company/keys/people', { bearer: co.adminToken })).body
      .people;
    const bob = people.find((person: { user_id: string }) => person.user_id === second.userId);
    expect(bob).toMatchObject({
      company_key: 'missing',
      fingerprint: await personFingerprint(second.person.publicKeys),
      access_request: { id: asked.body.id, fingerprint: await personFingerprint(second.person.publicKeys) },
    });
    expect(JSON.stringify(people)).not.toContain('sealed');

    const approval = await approve(co, second);
    // A fingerprint that is not the person's current one: refused, nothing stored.
    const wrongFingerprint = await co.client.call('POST', '/api/account/company/keys/grants', {
      bearer: co.adminToken,
      body: { ...approval, fingerprint: await personFingerprint((await createPersonKeys()).publicKeys) },
    });
    expect(wrongFingerprint.status).toBe(409);
    expect(wrongFingerprint.body.message).toBe(
      "This person's key changed since you compared it: compare the new fingerprint",
    );
    expect((await co.client.call('GET', '/api/account/company/keys', { bearer: second.token })).body.grant).toBeNull();

    const granted = await co.client.call('POST', '/api/account/company/keys/grants', {
      bearer: co.adminToken,
      body: { ...approval, request_id: asked.body.id },
    });
    expect(granted.status).toBe(204);
    const mine = (await co.client.call('GET', '/api/account/company/keys', { bearer: second.token })).body;
    expect(mine.access_request).toBeNull();
    await expect(openCompanyKeyGrant(second.person, mine.grant, mine.public_key)).resolves.toBeDefined();
  });

  test('when an approval answers an expired request, or comes from an admin without the key, then it is refused and nothing is stored', async () => {
    const co = await company();
    const second = await invite(co, ['ADMIN'], 'Eve');
    const asked = await co.client.call('POST', '/api/account/company/keys/requests', { bearer: second.token });
    await test$.deps.db.query(
      `update auth.key_access_request set expires_at = now() - interval '1 second' where id = $1`,
      [asked.body.id],
    );
    const expired = await co.client.call('POST', '/api/account/company/keys/grants', {
      bearer: co.adminToken,
      body: { ...(await approve(co, second)), request_id: asked.body.id },
    });
    expect(expired.status).toBe(409);
    expect(expired.body.message).toBe('This request has expired: ask them to request access again');

    // Eve holds no key: she cannot hand one to anybody (her browser could not have opened it).
    const third = await invite(co, ['ADMIN'], 'Tom');
    const fromEve = await co.client.call('POST', '/api/account/company/keys/grants', {
      bearer: second.token,
      body: await approve(co, third),
    });
    expect(fromEve.status).toBe(403);
    const { rows } = await test$.deps.db.query('select user_id from auth.company_key_grant where company_id = $1', [
      co.companyId,
    ]);
    expect(rows).toHaveLength(1);
  });

  test('when an admin resets the password by e-mail, then the new keys open nothing until the recovery kit restores access', async () => {
    const co = await company();
    await co.client.call('PUT', '/api/account/profile/password/reset', { bearer: co.email });
    const mail = await smtp.waitFor(
      (m) => recipientOf(m) === co.email && m.subject === 'Reset your Whistle password',
      'reset',
    );
    expect((await co.client.acceptLink(linkToken(mail.text!), 'a new password 42')).status).toBe(204);
    const token = (await co.client.login(co.email, 'a new password 42')).body.token as string;
    const person = await unlockOwnKeys(co.client.call, token, 'a new password 42');
    expect(person.publicKeys.public_key).not.toBe(co.admin.publicKeys.public_key);
    const keys = (await co.client.call('GET', '/api/account/company/keys', { bearer: token })).body;
    expect(keys.grant).toBeNull();
    await waitFor(() => eventsOf('company.key_revoked', co.companyId).length === 1, { what: 'the revocation' });
    expect(eventsOf('company.key_revoked', co.companyId)[0].payload).toMatchObject({ reason: 'keys_replaced' });
    expect(eventsOf('user.keys_created', co.companyId).some((event) => event.payload.replaced === true)).toBe(true);

    // The recovery kit the admin printed at onboarding: their browser grants the key to their new keys.
    const secret = await openCompanyKeyWithRecovery(
      co.recovery,
      keys.recovery.aes_encrypted_private_key,
      keys.public_key,
    );
    const restored = await co.client.call('POST', '/api/account/company/keys/grants', {
      bearer: token,
      body: {
        user_id: (await co.client.call('GET', '/api/account/company/profile/', { bearer: token })).body.uuid,
        key_version: keys.key_version,
        fingerprint: await personFingerprint(person.publicKeys),
        grant: await grantCompanyKey(secret, keys.public_key, person.publicKeys.public_key),
      },
    });
    expect(restored.status).toBe(204);
    const after = (await co.client.call('GET', '/api/account/company/keys', { bearer: token })).body;
    await expect(openCompanyKeyGrant(person, after.grant, after.public_key)).resolves.toBeDefined();
  });

  test('when a handler asks, an admin approves, and the handler is later removed, then the handler held the key until the removal deleted it at once', async () => {
    const co = await company();
    const handler = await invite(co, ['HANDLER'], 'Hal');
    const asked = await co.client.call('POST', '/api/account/company/keys/requests', { bearer: handler.token });
    expect(asked.status).toBe(201);
    const granted = await co.client.call('POST', '/api/account/company/keys/grants', {
      bearer: co.adminToken,
      body: { ...(await approve(co, handler)), request_id: asked.body.id },
    });
    expect(granted.status).toBe(204);
    const mine = (await co.client.call('GET', '/api/account/company/keys', { bearer: handler.token })).body;
    expect(mine.recovery).toBeNull();
    await expect(openCompanyKeyGrant(handler.person, mine.grant, mine.public_key)).resolves.toBeDefined();
    // Only admins hand the key on, even to themselves with a grant they made up.
    const byHandler = await co.client.call('POST', '/api/account/company/keys/grants', {
      bearer: handler.token,
      body: await approve(co, handler),
    });
    expect(byHandler.status).toBe(403);

    // A change between non-admin roles keeps the key they were approved; a removal deletes it.
    await co.client.call('PUT', '/api/account/company/user_profile/', {
      bearer: co.adminToken,
      body: { uuid: handler.userId, roles: ['REVIEWER'] },
    });
    const held = async (userId: string) =>
      (await test$.deps.db.query('select 1 from auth.company_key_grant where user_id = $1', [userId])).rows.length;
    expect(await held(handler.userId)).toBe(1);
    await co.client.call('DELETE', '/api/account/company/user_profile/', {
      bearer: co.adminToken,
      body: { uuid: handler.userId },
    });
    expect(await held(handler.userId)).toBe(0);
    await waitFor(() => eventsOf('company.key_revoked', co.companyId).length === 1, { what: 'the revocation' });
    expect(eventsOf('company.key_revoked', co.companyId)[0].payload).toMatchObject({
      user_id: handler.userId,
      reason: 'user_deleted',
    });
  });

  test('when an admin is removed, then their wrapping of the company key is deleted at once', async () => {
    const co = await company();
    const second = await invite(co, ['ADMIN'], 'Rob');
    const third = await invite(co, ['ADMIN'], 'Dee');
    for (const member of [second, third])
      expect(
        (
          await co.client.call('POST', '/api/account/company/keys/grants', {
            bearer: co.adminToken,
            body: await approve(co, member),
          })
        ).status,
      ).toBe(204);
    const held = async (userId: string) =>
      (await test$.deps.db.query('select 1 from auth.company_key_grant where user_id = $1', [userId])).rows.length;
    expect(await held(second.userId)).toBe(1);
    await co.client.call('DELETE', '/api/account/company/user_profile/', {
      bearer: co.adminToken,
      body: { uuid: third.userId },
    });
    expect(await held(third.userId)).toBe(0);
    expect(await held(second.userId)).toBe(1);
    await waitFor(() => eventsOf('company.key_revoked', co.companyId).length === 1, { what: 'the revocation' });
    expect(eventsOf('company.key_revoked', co.companyId)[0].payload).toMatchObject({ reason: 'user_deleted' });
  });

  test('when an admin loses the ADMIN role, then their wrapping of the company key is deleted at once, and a role change that keeps ADMIN keeps it', async () => {
    const co = await company();
    const second = await invite(co, ['ADMIN'], 'Rob');
    const third = await invite(co, ['ADMIN', 'HANDLER'], 'Dee');
    for (const member of [second, third])
      expect(
        (
          await co.client.call('POST', '/api/account/company/keys/grants', {
            bearer: co.adminToken,
            body: await approve(co, member),
          })
        ).status,
      ).toBe(204);
    const held = async (userId: string) =>
      (await test$.deps.db.query('select 1 from auth.company_key_grant where user_id = $1', [userId])).rows.length;
    const setRoles = (uuid: string, roles: string[]) =>
      co.client.call('PUT', '/api/account/company/user_profile/', { bearer: co.adminToken, body: { uuid, roles } });

    expect((await setRoles(second.userId, ['ADMIN', 'REVIEWER'])).status).toBe(200);
    expect(await held(second.userId)).toBe(1);
    expect((await setRoles(third.userId, ['HANDLER'])).status).toBe(200);
    expect(await held(third.userId)).toBe(0);
    expect(await held(second.userId)).toBe(1);
    await waitFor(() => eventsOf('company.key_revoked', co.companyId).length === 1, { what: 'the revocation' });
    expect(eventsOf('company.key_revoked', co.companyId)[0].payload).toMatchObject({
      user_id: third.userId,
      key_version: null,
      reason: 'admin_role_removed',
    });
    // Signed in again with the new role, the former admin is handed no company key.
    const token = (await co.client.login(third.email, memberPassword)).body.token as string;
    const theirs = (await co.client.call('GET', '/api/account/company/keys', { bearer: token })).body;
    expect(theirs.grant).toBeNull();
  });

  test('when the recovery kit is rotated, then the new kit opens the company key and the old one no longer does', async () => {
    const co = await company();
    const keys = (await co.client.call('GET', '/api/account/company/keys', { bearer: co.adminToken })).body;
    const secret = await openCompanyKeyGrant(co.admin, keys.grant, keys.public_key);
    const kit = await createRecoveryKey();
    const rotated = await co.client.call('PUT', '/api/account/company/keys/recovery', {
      bearer: co.adminToken,
      body: {
        key_version: keys.key_version,
        aes_encrypted_private_key: await sealCompanyKeyForRecovery(kit, secret, keys.public_key),
      },
    });
    expect(rotated.status).toBe(204);
    const after = (await co.client.call('GET', '/api/account/company/keys', { bearer: co.adminToken })).body;
    await expect(
      openCompanyKeyWithRecovery(kit, after.recovery.aes_encrypted_private_key, after.public_key),
    ).resolves.toBeDefined();
    await expect(
      openCompanyKeyWithRecovery(co.recovery, after.recovery.aes_encrypted_private_key, after.public_key),
    ).rejects.toThrow();
  });

  test('when a person without a password (SSO) makes keys, then a passkey or an unlock passphrase seals them, never the last way in is removed', async () => {
    const co = await company();
    const handler = await invite(co, ['HANDLER'], 'Sam');
    // Sam already has keys from the invitation: a second set is refused.
    const { publicKeys, secret } = await createPersonKeys();
    const unlockKey = (await deriveStaffSecrets('an unlock passphrase', newKdfSalt())).unlockKey;
    const sealed = await sealPersonSecret(unlockKey, secret, publicKeys);
    const again = await co.client.call('PUT', '/api/account/profile/keys', {
      bearer: handler.token,
      body: {
        ...publicKeys,
        unlock: { method: 'passphrase', kdf: 'argon2id-v2', kdf_salt: newKdfSalt(), sealed_private_keys: sealed },
      },
    });
    expect(again.status).toBe(409);

    const passkey = {
      method: 'passkey',
      credential_id: randomBytes(32).toString('base64url'),
      prf_salt: randomBytes(32).toString('base64url'),
      label: 'Laptop',
      sealed_private_keys: sealed,
    };
    const added = await co.client.call('POST', '/api/account/profile/keys/unlock', {
      bearer: handler.token,
      body: passkey,
    });
    expect(added.status).toBe(201);
    expect(added.body.person.unlock.map((method: { method: string }) => method.method)).toEqual([
      'password',
      'passkey',
    ]);
    expect(
      (await co.client.call('POST', '/api/account/profile/keys/unlock', { bearer: handler.token, body: passkey }))
        .status,
    ).toBe(409);
    const password = added.body.person.unlock[0];
    expect(
      (await co.client.call('DELETE', `/api/account/profile/keys/unlock/${password.id}`, { bearer: handler.token }))
        .status,
    ).toBe(400);
    const removed = await co.client.call(
      'DELETE',
      `/api/account/profile/keys/unlock/${added.body.person.unlock[1].id}`,
      {
        bearer: handler.token,
      },
    );
    expect(removed.body.person.unlock).toHaveLength(1);
    expect(
      (await co.client.call('DELETE', `/api/account/profile/keys/unlock/${randomUUID()}`, { bearer: handler.token }))
        .status,
    ).toBe(404);
  });
});
