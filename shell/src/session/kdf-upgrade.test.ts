/**
 * @jest-environment node
 */
// Node's environment: jsdom has no WebCrypto, and the point here is the real protocol.
import { deriveStaffSecrets, unlockPersonKeys } from '@whistle/crypto';
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

describe('the background move of a v1 password to argon2id-v2', () => {
  const KDF_URL = '/api/account/profile/password/kdf';
  const upgrades = () => posted.filter((call) => call.url === KDF_URL);

  async function v1SignIn() {
    const admin = await onboardedAdmin('argon2id-v1');
    const v1 = { salt: admin.own.password!.salt, person: admin.own.person! };
    serve(admin);
    const session = createStaffSession(localStorage);
    // What the login page holds after a sign-in whose salt said argon2id-v1.
    session.holdKdfUpgrade({
      password: PASSWORD,
      kdf: 'argon2id-v1',
      proof: admin.authSecret,
      unlockKey: admin.unlockKey,
    });
    await session.signIn('staff-token', admin.unlockKey);
    return { admin, session, v1 };
  }

  it('when a v1 account is in, then its keys open first, and after that the same password derived with v2 re-seals them, proven by the v1 secret, once', async () => {
    const { admin, session, v1 } = await v1SignIn();
    await session.staff();
    expect(session.keyring.state()).toBe('unlocked');
    // Not on the way in: nothing sent yet when the session (keys, profile) is ready.
    expect(upgrades()).toEqual([]);
    expect(await session.kdfUpgradeSettled()).toBe('upgraded');

    const [put] = upgrades();
    const body = put.body as {
      kdf: string;
      password: string;
      kdf_salt: string;
      current_password: string;
      sealed_private_keys: string;
    };
    expect(body.kdf).toBe('argon2id-v2');
    expect(body.current_password).toBe(admin.authSecret);
    expect(body.kdf_salt).not.toBe(v1.salt);
    const v2 = await deriveStaffSecrets(PASSWORD, body.kdf_salt, 'argon2id-v2');
    expect(body.password).toBe(v2.authSecret);
    await expect(unlockPersonKeys(v2.unlockKey, body.sealed_private_keys, v1.person)).resolves.toBeDefined();
    expect(JSON.stringify(posted)).not.toContain(PASSWORD);

    // The password is not kept for another go: a reload of the session sends nothing more.
    await session.reloadStaff();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upgrades()).toHaveLength(1);
    expect(session.keyring.state()).toBe('unlocked');
  });

  it('when the upgrade is refused, then the person stays in with their keys, nothing is thrown, and it is not retried in this page', async () => {
    const { session } = await v1SignIn();
    const served = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url !== KDF_URL) return served(url, init);
      posted.push({ url, body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify({ message: 'The current password is wrong' }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      });
    });
    await session.staff();
    expect(await session.kdfUpgradeSettled()).toBe('failed');
    expect(session.keyring.state()).toBe('unlocked');
    await session.reloadStaff();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upgrades()).toHaveLength(1);
  });

  it('when the account is v2 already, or the sign-out comes first, then nothing is derived or sent', async () => {
    const admin = await onboardedAdmin();
    serve(admin);
    const current = createStaffSession(localStorage);
    await current.signIn('staff-token', admin.unlockKey);
    await current.staff();
    expect(current.kdfUpgradeSettled()).toBeUndefined();

    const { session } = await v1SignIn();
    await session.signOut();
    localStorage.setItem('token', 'staff-token');
    await session.staff();
    expect(session.kdfUpgradeSettled()).toBeUndefined();
    expect(upgrades()).toEqual([]);
  });
});
