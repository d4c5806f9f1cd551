/**
 * @jest-environment node
 */
// Node's environment: jsdom has no WebCrypto, and the point here is the real unlock.
import { createCompanyCredentials, unwrapWithPrivateKey, wrapToPublicKey } from '@whistle/crypto';
import { createStaffSession } from './staff-session';

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const profile = {
  uuid: '7d0c8f62-35a8-4c1b-9d64-6f4a4d2b9a11',
  email: 'ada@acme.example',
  full_name: 'Ada Lovelace',
  roles: ['ADMIN'],
  mfa_auth_factor_id: null,
};

/** localStorage as the browser has it (Node 20 has none). */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  entries() {
    return [...this.items.entries()];
  }
}

let localStorage: MemoryStorage;
let fetchMock: jest.SpyInstance;
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
  localStorage = new MemoryStorage();
});
afterEach(() => fetchMock.mockRestore());

describe('staff session', () => {
  it('when signing in, then the company private key is unlocked into memory only and opens what was wrapped to the company key', async () => {
    const { credential, passphrase } = await createCompanyCredentials();
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      expect((init.headers as Record<string, string>).Authorization).toBe('Bearer staff-token');
      if (url === '/api/account/company/profile/keys')
        return answer(200, { aes_encrypted_private_key: credential.aes_encrypted_private_key, passphrase });
      throw new Error(`unexpected ${url}`);
    });
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token');

    const key = session.companyPrivateKey();
    expect(key).toBeDefined();
    const wrapped = await wrapToPublicKey(
      credential.public_key,
      new TextEncoder().encode('incident passphrase'),
      'incident-passphrase',
    );
    expect(new TextDecoder().decode(await unwrapWithPrivateKey(key!, wrapped, 'incident-passphrase'))).toBe(
      'incident passphrase',
    );
    // Nothing but the token is kept in storage: no key, no passphrase.
    expect(localStorage.entries()).toEqual([['token', 'staff-token']]);
  });

  it('when the keys need MFA not done yet (403), then sign-in succeeds with the key locked', async () => {
    fetchMock.mockResolvedValue(answer(403, { message: 'MFA required' }));
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token');
    expect(session.companyPrivateKey()).toBeUndefined();
  });

  it('when loading staff, then profile and company are fetched once; logout revokes, clears the token and forgets the key', async () => {
    const { credential, passphrase } = await createCompanyCredentials();
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/account/company/profile/') return answer(200, profile);
      if (url === '/api/account/company/') return answer(200, { name: 'Acme', url_identifier: 'acme' });
      if (url === '/api/account/company/profile/keys')
        return answer(200, { aes_encrypted_private_key: credential.aes_encrypted_private_key, passphrase });
      if (url === '/api/account/token/revoke') return answer(204);
      throw new Error(`unexpected ${url}`);
    });
    localStorage.setItem('token', 'from-before-reload');
    const session = createStaffSession(localStorage);
    const [first, second] = await Promise.all([session.staff(), session.staff()]);
    expect(first).toBe(second);
    expect(first.profile.full_name).toBe('Ada Lovelace');
    expect(session.companyPrivateKey()).toBeDefined();

    await session.signOut();
    expect(
      fetchMock.mock.calls.some(([url, init]) => url === '/api/account/token/revoke' && init.method === 'POST'),
    ).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
    expect(session.companyPrivateKey()).toBeUndefined();
    await expect(session.staff()).rejects.toThrow('Not signed in');
  });
});
