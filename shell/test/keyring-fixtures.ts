/** The auth service and the browser storage as the staff session tests see them (real protocol, fetch mocked). */
import type { CompanyKeysResponse, OwnKeysResponse } from '@whistle/contracts';
import {
  CURRENT_KDF,
  createCompanyKeyPair,
  createPersonKeys,
  createRecoveryKey,
  deriveStaffSecrets,
  grantCompanyKey,
  newKdfSalt,
  personFingerprint,
  sealCompanyKeyForRecovery,
  sealPersonSecret,
  importPersonKeys,
  type KdfName,
} from '@whistle/crypto';
export const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export const profile = {
  uuid: '7d0c8f62-35a8-4c1b-9d64-6f4a4d2b9a11',
  email: 'ada@acme.example',
  full_name: 'Ada Lovelace',
  roles: ['ADMIN'],
  mfa_auth_factor_id: null,
};
export const PASSWORD = 'correct horse battery staple';

/** localStorage as the browser has it (Node has none). */
export class MemoryStorage implements Storage {
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

/** What the auth service holds for an admin made at onboarding: sealed keys, a grant, the kit's copy. */
export async function onboardedAdmin(kdf: KdfName = CURRENT_KDF) {
  const salt = newKdfSalt();
  const { authSecret, unlockKey } = await deriveStaffSecrets(PASSWORD, salt, kdf);
  const { publicKeys, secret } = await createPersonKeys();
  const person = await importPersonKeys(secret, publicKeys);
  const sealed = await sealPersonSecret(unlockKey, secret, publicKeys);
  const company = await createCompanyKeyPair();
  const recovery = await createRecoveryKey();
  const own: OwnKeysResponse = {
    password: { kdf, salt },
    person: {
      ...publicKeys,
      fingerprint: await personFingerprint(publicKeys),
      unlock: [
        {
          id: 'a3b2e0a4-1111-4b8e-9f0e-000000000001',
          method: 'password',
          sealed_private_keys: sealed,
          credential_id: null,
          prf_salt: null,
          kdf: null,
          kdf_salt: null,
          label: null,
          created: new Date().toISOString(),
        },
      ],
    },
  };
  const companyKeys: CompanyKeysResponse = {
    key_version: 1,
    public_key: company.public_key,
    grant: await grantCompanyKey(company.secret, company.public_key, publicKeys.public_key),
    recovery: {
      aes_encrypted_private_key: await sealCompanyKeyForRecovery(recovery, company.secret, company.public_key),
    },
    legacy: null,
    access_request: null,
    rotation: null,
  };
  return { authSecret, unlockKey, person, own, companyKeys, company, recovery };
}

/** The auth service as far as the session asks it. */
export function serveAuth(
  fetchMock: jest.SpyInstance,
  posted: { url: string; body: unknown }[],
  state: { own: OwnKeysResponse; companyKeys: CompanyKeysResponse } | 'mfa-required',
) {
  fetchMock.mockImplementation(async (url: string, init: RequestInit = {}) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    if (init.method && init.method !== 'GET') posted.push({ url, body });
    if (url === '/api/account/company/profile/') return answer(200, profile);
    if (url === '/api/account/company/') return answer(200, { name: 'Acme', url_identifier: 'acme' });
    if (url === '/api/account/token/revoke') return answer(204);
    if (state === 'mfa-required') return answer(403, { message: 'MFA required' });
    if (url === '/api/account/profile/keys' && init.method === 'PUT') {
      state.own = {
        ...state.own,
        person: {
          ...body,
          fingerprint: await personFingerprint(body),
          unlock: [
            {
              ...body.unlock,
              id: 'a3b2e0a4-1111-4b8e-9f0e-000000000002',
              credential_id: null,
              prf_salt: null,
              label: null,
              created: new Date().toISOString(),
            },
          ],
        },
      };
      return answer(201, state.own);
    }
    if (url === '/api/account/profile/keys') return answer(200, state.own);
    if (url === '/api/account/company/keys') return answer(200, state.companyKeys);
    if (url === '/api/account/company/keys/grants') return answer(204);
    if (url === '/api/account/company/keys/endorsements') return answer(204);
    if (url === '/api/account/company/keys/rotation') {
      // As auth does: the new key is current, the caller's grant of it theirs, the old one still held.
      const before = state.companyKeys;
      state.companyKeys = {
        ...before,
        key_version: before.key_version + 1,
        public_key: body.public_key,
        grant: body.grants.find((grant: { user_id: string }) => grant.user_id === profile.uuid).grant,
        recovery: { aes_encrypted_private_key: body.aes_encrypted_private_key },
        rotation: {
          previous_key_version: before.key_version,
          previous_public_key: before.public_key,
          previous_grant: before.grant,
          started_at: new Date().toISOString(),
          started_by: profile.uuid,
        },
      };
      return answer(201, { key_version: before.key_version + 1 });
    }
    if (url === '/api/account/profile' && init.method === 'PUT') return answer(200, { ...profile, token: 'new-token' });
    if (url === '/api/account/profile/password/kdf' && init.method === 'PUT') {
      // As auth does: the new salt and the re-sealed password copy replace the old ones.
      const copy = state.own.person!.unlock.map((method) =>
        method.method === 'password' ? { ...method, sealed_private_keys: body.sealed_private_keys } : method,
      );
      state.own = {
        password: { kdf: body.kdf, salt: body.kdf_salt },
        person: { ...state.own.person!, unlock: copy },
      };
      return answer(204);
    }
    throw new Error(`unexpected ${init.method ?? 'GET'} ${url}`);
  });
}
