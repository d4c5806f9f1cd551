// What a staff member's browser does with keys (docs/security.md, "Keys"), for the benchmarks: the onboarding
// payload, a sign-in with the derived secret, the company key opened from the admin's grant. The same calls of
// @whistle/crypto as the pages (test-support has the TypeScript twin for the tests).
import crypto from '@whistle/crypto';

const {
  createCompanyKeyPair,
  createPersonKeys,
  createRecoveryKey,
  deriveStaffSecrets,
  grantCompanyKey,
  importCompanyPrivateKey,
  newKdfSalt,
  openCompanyKeyGrant,
  sealCompanyKeyForRecovery,
  sealPersonSecret,
  unlockPersonKeys,
} = crypto;

const json = async (response) => {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
};
const post = (url, body, headers = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

// Argon2id at 64 MiB takes a good part of a second: the same person signing in again derives once.
const derived = new Map();
const secretsOf = (password, salt) => {
  const key = `${salt}\n${password}`;
  if (!derived.has(key)) derived.set(key, deriveStaffSecrets(password, salt));
  return derived.get(key);
};

/** The onboarding payload as the page makes it (`user_profile` completed with email, name). */
export async function onboardingBody({ email, password, fullName = 'Bench Admin', name, country = 'FR' }) {
  const kdfSalt = newKdfSalt();
  const { authSecret, unlockKey } = await secretsOf(password, kdfSalt);
  const { publicKeys, secret } = await createPersonKeys();
  const company = await createCompanyKeyPair();
  const recovery = await createRecoveryKey();
  return {
    user_profile: {
      email,
      full_name: fullName,
      password: authSecret,
      kdf: crypto.CURRENT_KDF,
      kdf_salt: kdfSalt,
      keys: {
        ...publicKeys,
        unlock: { method: 'password', sealed_private_keys: await sealPersonSecret(unlockKey, secret, publicKeys) },
      },
    },
    name,
    credential: {
      public_key: company.public_key,
      aes_encrypted_private_key: await sealCompanyKeyForRecovery(recovery, company.secret, company.public_key),
    },
    passphrase: await grantCompanyKey(company.secret, company.public_key, publicKeys.public_key),
    country,
  };
}

/** A staff token as the login page gets it: the salt, then the derived secret. */
export async function signIn(baseUrl, username, password) {
  const salt = await json(await post(`${baseUrl}/api/account/token/salt`, { username }));
  const { authSecret } = await secretsOf(password, salt.salt);
  return (await json(await post(`${baseUrl}/api/account/token`, { username, password: authSecret }))).token;
}

/** The person's own keys as their browser unlocks them with the password (what signs their replies). */
export async function ownPersonKeys(baseUrl, token, password) {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const own = await json(await fetch(`${baseUrl}/api/account/profile/keys`, { headers }));
  const { unlockKey } = await secretsOf(password, own.password.salt);
  const copy = own.person.unlock.find((method) => method.method === 'password');
  return unlockPersonKeys(unlockKey, copy.sealed_private_keys, own.person);
}

/** The company private key as an admin's browser opens it: own keys unlocked with the password, then the grant. */
export async function companyPrivateKey(baseUrl, token, password) {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const person = await ownPersonKeys(baseUrl, token, password);
  const keys = await json(await fetch(`${baseUrl}/api/account/company/keys`, { headers }));
  return importCompanyPrivateKey(await openCompanyKeyGrant(person, keys.grant, keys.public_key));
}

/** The authentication secret of a password for an account (for k6, which has no Argon2id: AUTH_SECRET). */
export async function authSecretFor(baseUrl, username, password) {
  const salt = await json(await post(`${baseUrl}/api/account/token/salt`, { username }));
  return (await secretsOf(password, salt.salt)).authSecret;
}
