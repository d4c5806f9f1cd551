/**
 * @jest-environment node
 */
// Node's environment: jsdom has no WebCrypto, and the point here is the real protocol.
import type { OwnKeysResponse } from '@whistle/contracts';
import {
  createCompanyKeyPair,
  createIncidentCredentials,
  createPersonKeys,
  createRecoveryKey,
  DecryptionError,
  deriveStaffSecrets,
  grantIncidentPassphrase,
  importCompanyPrivateKey,
  encryptContent,
  decryptContent,
  openCompanyKeyGrant,
  personFingerprint,
  importPersonKeys,
  verifyKeyEndorsement,
} from '@whistle/crypto';
import { MemoryStorage, onboardedAdmin, PASSWORD, serveAuth } from '../../test/keyring-fixtures';
import { createStaffSession } from './staff-session';

let localStorage: MemoryStorage;
let fetchMock: jest.SpyInstance;
let posted: { url: string; body: unknown }[];
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
  localStorage = new MemoryStorage();
  posted = [];
});
afterEach(() => fetchMock.mockRestore());

const serve = (state: Parameters<typeof serveAuth>[2]) => serveAuth(fetchMock, posted, state);

describe('staff session and its keyring', () => {
  it('when signing in with the key the password derived, then the keys open, cases open through the granted company key, and only the token is stored', async () => {
    const admin = await onboardedAdmin();
    serve(admin);
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    expect(session.keyring.state()).toBe('unlocked');
    expect(session.keyring.person()?.fingerprint).toBe(admin.own.person!.fingerprint);

    const report = await createIncidentCredentials(admin.company.public_key);
    const text = await encryptContent(report.incident.publicKey, 'what happened', {
      kind: 'field',
      name: 'description',
    });
    const opened = await session.keyring.openCase(report.payload);
    expect(await decryptContent(opened, text, { kind: 'field', name: 'description' })).toBe('what happened');

    // Nothing but the token is kept in storage: no key, no passphrase.
    expect(localStorage.entries()).toEqual([['token', 'staff-token']]);
  });

  it('when signing in, then the profile, the company and both sets of keys are asked for at once, each once', async () => {
    const admin = await onboardedAdmin();
    serve(admin);
    // Every answer waits until four requests are under way: a request asked only after another's answer never
    // starts, and the sign-in would hang (a chain of round trips is what a slow network makes long).
    const served = fetchMock.getMockImplementation()!;
    const asked: string[] = [];
    let release!: () => void;
    const allAsked = new Promise<void>((resolve) => (release = resolve));
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      asked.push(`${init?.method ?? 'GET'} ${url}`);
      if (asked.length === 4) release();
      await allAsked;
      return served(url, init);
    });
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    expect(session.keyring.state()).toBe('unlocked');
    expect([...asked].sort()).toEqual([
      'GET /api/account/company/',
      'GET /api/account/company/keys',
      'GET /api/account/company/profile/',
      'GET /api/account/profile/keys',
    ]);
  });

  it('when no admin has granted the company key to this person yet, then opening a case says so', async () => {
    const admin = await onboardedAdmin();
    serve({ ...admin, companyKeys: { ...admin.companyKeys, grant: null, recovery: null } });
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    expect(session.keyring.state()).toBe('unlocked');
    const report = await createIncidentCredentials(admin.company.public_key);
    await expect(session.keyring.openCase(report.payload)).rejects.toThrow('You have no key to this case yet');
    expect((await session.keyring.companyKeyStatus()).state).toBe('missing');
  });

  it("when a handler without the company key holds a case's grant, then their own key opens that case, and a grant of another case does not", async () => {
    const handler = await onboardedAdmin();
    serve({ ...handler, companyKeys: { ...handler.companyKeys, grant: null, recovery: null } });
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', handler.unlockKey);
    await session.staff();
    const companyPrivateKey = await importCompanyPrivateKey(handler.company.secret);
    const report = await createIncidentCredentials(handler.company.public_key);
    const other = await createIncidentCredentials(handler.company.public_key);
    const grantOf = async (keys: typeof report.payload) => {
      const [wrapped] = await grantIncidentPassphrase({
        ...keys,
        companyPrivateKeys: [companyPrivateKey],
        recipientPublicKeys: [handler.person.publicKeys.public_key],
      });
      return { key_id: 'a3b2e0a4-1111-4b8e-9f0e-000000000009', fingerprint: 'X', wrapped_passphrase: wrapped! };
    };
    const text = await encryptContent(report.incident.publicKey, 'for the assigned handler', { kind: 'note' });
    const opened = await session.keyring.openCase({ ...report.payload, my_grant: await grantOf(report.payload) });
    expect(await decryptContent(opened, text, { kind: 'note' })).toBe('for the assigned handler');
    // The grant carries the case team secret: the keyring's handle holds the case's notes key.
    expect(opened.notesKey).toBeDefined();
    await expect(
      session.keyring.openCase({ ...report.payload, my_grant: await grantOf(other.payload) }),
    ).rejects.toThrow(DecryptionError);
    await expect(session.keyring.openCase(report.payload)).rejects.toThrow('You have no key to this case yet');
  });

  it('when the company key is wrapped to the person with another company public key, then it is refused and nothing opens', async () => {
    const admin = await onboardedAdmin();
    const other = await createCompanyKeyPair();
    serve({ ...admin, companyKeys: { ...admin.companyKeys, public_key: other.public_key } });
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    expect(session.keyring.state()).toBe('locked');
    await expect(session.keyring.unlockWithPassword(PASSWORD)).rejects.toThrow();
    expect(session.keyring.state()).toBe('locked');
    expect(session.keyring.workerMaterial()).toBeUndefined();
  });

  it('when the session needs MFA not done yet (403), then the keys are unavailable and nothing opens', async () => {
    serve('mfa-required');
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token');
    await session.staff();
    expect(session.keyring.state()).toBe('unavailable');
    expect(session.keyring.workerMaterial()).toBeUndefined();
  });

  it('when reloaded without the key in memory, then the keys are locked until the password unlocks them; a wrong one does not', async () => {
    const admin = await onboardedAdmin();
    serve(admin);
    localStorage.setItem('token', 'from-before-reload');
    const session = createStaffSession(localStorage);
    await session.staff();
    expect(session.keyring.state()).toBe('locked');
    await expect(session.keyring.unlockWithPassword('not my password')).rejects.toThrow();
    expect(session.keyring.state()).toBe('locked');
    await session.keyring.unlockWithPassword(PASSWORD);
    expect(session.keyring.state()).toBe('unlocked');
    expect(session.keyring.workerMaterial()?.companyPrivateKey).toBeDefined();

    await session.signOut();
    expect(posted.some((call) => call.url === '/api/account/token/revoke')).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
    expect(session.keyring.state()).toBe('unavailable');
    expect(session.keyring.workerMaterial()).toBeUndefined();
    await expect(session.staff()).rejects.toThrow('Not signed in');
  });

  it('when a person without keys (SSO) sets up an unlock passphrase, then keys are made, sealed under it, and open', async () => {
    const admin = await onboardedAdmin();
    const state = {
      own: { password: null, person: null } as OwnKeysResponse,
      companyKeys: { ...admin.companyKeys, grant: null },
    };
    serve(state);
    localStorage.setItem('token', 'sso-token');
    const session = createStaffSession(localStorage);
    await session.staff();
    expect(session.keyring.state()).toBe('absent');
    await session.keyring.setUpWithPassphrase('a long unlock passphrase');
    expect(session.keyring.state()).toBe('unlocked');
    const put = posted.find((call) => call.url === '/api/account/profile/keys')!.body as {
      unlock: { method: string; kdf_salt: string };
    };
    expect(put.unlock).toMatchObject({ method: 'passphrase', kdf: 'argon2id-v2' });
    expect(JSON.stringify(posted)).not.toContain('a long unlock passphrase');
  });

  it('when an admin approves another admin, then the grant opens for the keys shown, and keys that do not match the shown fingerprint are refused', async () => {
    const admin = await onboardedAdmin();
    serve(admin);
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    const bob = await createPersonKeys();
    const bobKeys = await importPersonKeys(bob.secret, bob.publicKeys);
    const mallory = await createPersonKeys();
    const shown = await personFingerprint(bob.publicKeys);
    // The server names Bob (and his fingerprint) but hands Mallory's keys: refused before anything is wrapped.
    await expect(
      session.keyring.approveCompanyKey({
        userId: 'bob',
        publicKey: mallory.publicKeys.public_key,
        signingPublicKey: mallory.publicKeys.signing_public_key,
        fingerprint: shown,
      }),
    ).rejects.toThrow('do not match the fingerprint shown');
    expect(posted.filter((call) => call.url === '/api/account/company/keys/grants')).toHaveLength(0);

    await session.keyring.approveCompanyKey({
      userId: 'bob',
      publicKey: bob.publicKeys.public_key,
      signingPublicKey: bob.publicKeys.signing_public_key,
      fingerprint: shown,
      requestId: 'c1a1e7a2-8a66-4d1b-9b83-5b0c3a7c2d10',
    });
    const grant = posted.find((call) => call.url === '/api/account/company/keys/grants')!.body as {
      grant: string;
      fingerprint: string;
      request_id: string;
    };
    expect(grant).toMatchObject({ fingerprint: shown, request_id: 'c1a1e7a2-8a66-4d1b-9b83-5b0c3a7c2d10' });
    await expect(openCompanyKeyGrant(bobKeys, grant.grant, admin.company.public_key)).resolves.toBeDefined();
  });

  it("when an admin confirms a member's key, then the endorsement posted verifies under the admin's key for the company; keys that do not match the shown fingerprint are refused", async () => {
    const admin = await onboardedAdmin();
    serve(admin);
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    const hal = await createPersonKeys();
    const mallory = await createPersonKeys();
    const member = {
      userId: 'hal',
      publicKey: hal.publicKeys.public_key,
      signingPublicKey: hal.publicKeys.signing_public_key,
      fingerprint: await personFingerprint(hal.publicKeys),
      keyId: 'b7e0c0de-0000-4000-8000-000000000002',
      role: 'HANDLER' as const,
    };
    const input = {
      companyId: 'b7e0c0de-0000-4000-8000-0000000000c1',
      endorserKeyId: 'b7e0c0de-0000-4000-8000-000000000001',
    };
    const endorsements = () => posted.filter((call) => call.url === '/api/account/company/keys/endorsements');
    await expect(
      session.keyring.endorseTeamKey({
        ...input,
        member: { ...member, signingPublicKey: mallory.publicKeys.signing_public_key },
      }),
    ).rejects.toThrow('do not match the fingerprint shown');
    expect(endorsements()).toHaveLength(0);

    await session.keyring.endorseTeamKey({ ...input, member });
    const body = endorsements()[0]?.body as Parameters<typeof verifyKeyEndorsement>[1];
    expect(body).toMatchObject({ key_id: member.keyId, signing_public_key: member.signingPublicKey, role: 'HANDLER' });
    expect(body).not.toHaveProperty('company_id');
    const signed = { ...body, company_id: input.companyId };
    await expect(verifyKeyEndorsement(admin.own.person!.signing_public_key, signed)).resolves.toBe(true);
    await expect(
      verifyKeyEndorsement(admin.own.person!.signing_public_key, { ...signed, company_id: 'other' }),
    ).resolves.toBe(false);
  });

  it('when an admin restores access with the recovery kit, then a grant to their own keys is posted; a wrong kit posts nothing', async () => {
    const admin = await onboardedAdmin();
    serve({ own: admin.own, companyKeys: { ...admin.companyKeys, grant: null } });
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    await expect(session.keyring.restoreWithRecoveryKit((await createRecoveryKey()).text)).rejects.toThrow();
    await expect(session.keyring.restoreWithRecoveryKit('not a kit')).rejects.toThrow();
    expect(posted.filter((call) => call.url === '/api/account/company/keys/grants')).toHaveLength(0);
    await session.keyring.restoreWithRecoveryKit(admin.recovery.text.toLowerCase());
    const grant = posted.find((call) => call.url === '/api/account/company/keys/grants')!.body as { grant: string };
    await expect(openCompanyKeyGrant(admin.person, grant.grant, admin.company.public_key)).resolves.toBeDefined();
  });

  it('when the password is changed, then neither password travels, and the keys are sealed under the new one', async () => {
    const admin = await onboardedAdmin();
    serve(admin);
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    await expect(session.keyring.changePassword('not my password', 'a new password 2026')).rejects.toThrow(
      'Bad Request',
    );
    const answer = await session.keyring.changePassword(PASSWORD, 'a new password 2026');
    expect(answer.token).toBe('new-token');
    const put = posted.find((call) => call.url === '/api/account/profile')!.body as {
      password: string;
      kdf_salt: string;
      current_password: string;
      sealed_private_keys: string;
    };
    expect(JSON.stringify(put)).not.toContain(PASSWORD);
    expect(JSON.stringify(put)).not.toContain('a new password 2026');
    const fresh = await deriveStaffSecrets('a new password 2026', put.kdf_salt);
    expect(put.password).toBe(fresh.authSecret);
    const { unlockPersonKeys } = await import('@whistle/crypto');
    await expect(unlockPersonKeys(fresh.unlockKey, put.sealed_private_keys, admin.own.person!)).resolves.toBeDefined();
  });
});
