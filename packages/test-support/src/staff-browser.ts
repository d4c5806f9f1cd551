import type {
  CompanyCreateRequest,
  CompanyKeysResponse,
  OwnKeysResponse,
  SaltResponse,
  TeamKeysResponse,
} from '@whistle/contracts';
import {
  CURRENT_KDF,
  createCompanyKeyPair,
  createPersonKeys,
  createRecoveryKey,
  deriveStaffSecrets,
  grantCompanyKey,
  importCompanyPrivateKey,
  importPersonKeys,
  newKdfSalt,
  openCompanyKeyGrant,
  resealPersonSecret,
  sealCompanyKeyForRecovery,
  sealPersonSecret,
  unlockPersonKeys,
  type PersonKeys,
  type KdfName,
  type RecoveryKey,
  type StaffSecrets,
} from '@whistle/crypto';

/**
 * What a staff member's browser does with keys (docs/security.md, "Keys"), for tests that speak HTTP: derive the
 * authentication secret from a password, make key pairs, open the company key. The same @whistle/crypto calls the
 * pages make, so a test passes only if the protocol does.
 */

/** An HTTP call as the tests' clients make it. */
export type StaffCall = (
  method: string,
  path: string,
  options?: { body?: unknown; bearer?: string },
) => Promise<{ status: number; body: unknown }>;

/** A fetch-based StaffCall on `baseUrl`. */
export function fetchCall(baseUrl: string, headers: Record<string, string> = {}): StaffCall {
  return async (method, path, { body, bearer } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text && text.startsWith('{') ? JSON.parse(text) : text };
  };
}

// Argon2id at 64 MiB takes a good part of a second: a test signing in the same person again derives once.
const derived = new Map<string, Promise<StaffSecrets>>();
/** `kdf`: the one the salt was made for (a salt answer's, a stored one's); a fresh salt's is the current one. */
export function staffSecrets(password: string, salt: string, kdf: KdfName = CURRENT_KDF): Promise<StaffSecrets> {
  const key = `${kdf}\n${salt}\n${password}`;
  let secrets = derived.get(key);
  if (!secrets) {
    secrets = deriveStaffSecrets(password, salt, kdf);
    derived.set(key, secrets);
  }
  return secrets;
}

/**
 * A new password with the key pairs made for it, as the onboarding, invitation and reset pages send it
 * (`password`, `kdf_salt`, `keys`), and the person's unlocked keys.
 */
export async function newPasswordCredentials(password: string, kdfSalt = newKdfSalt()) {
  const { authSecret, unlockKey } = await staffSecrets(password, kdfSalt);
  const { publicKeys, secret } = await createPersonKeys();
  const sealed = await sealPersonSecret(unlockKey, secret, publicKeys);
  const person = await importPersonKeys(secret, publicKeys);
  secret.fill(0);
  return {
    body: {
      password: authSecret,
      kdf: CURRENT_KDF,
      kdf_salt: kdfSalt,
      keys: { ...publicKeys, unlock: { method: 'password' as const, sealed_private_keys: sealed } },
    },
    person,
  };
}

export interface Onboarding {
  payload: CompanyCreateRequest;
  /** What the admin printed: it opens the company key without any admin. */
  recovery: RecoveryKey;
  admin: PersonKeys;
  companyPublicKey: string;
}

/** The onboarding payload as the page makes it: the admin's keys, the company key granted to them and sealed for the kit. */
export async function onboardingPayload(input: {
  email: string;
  password: string;
  full_name?: string;
  name?: string;
  country?: string;
  /** A fixed salt (Pact: the consumer derives the same secret); a fresh one otherwise. */
  kdfSalt?: string;
}): Promise<Onboarding> {
  const { body, person } = await newPasswordCredentials(input.password, input.kdfSalt);
  const company = await createCompanyKeyPair();
  const recovery = await createRecoveryKey();
  const [grant, sealed] = await Promise.all([
    grantCompanyKey(company.secret, company.public_key, person.publicKeys.public_key),
    sealCompanyKeyForRecovery(recovery, company.secret, company.public_key),
  ]);
  company.secret.fill(0);
  return {
    payload: {
      user_profile: { email: input.email, full_name: input.full_name ?? 'Ada Admin', ...body },
      name: input.name ?? 'Acme Corporation',
      credential: { public_key: company.public_key, aes_encrypted_private_key: sealed },
      passphrase: grant,
      country: input.country ?? 'FR',
    },
    recovery,
    admin: person,
    companyPublicKey: company.public_key,
  };
}

/** The sign-in body the login page sends for this password: the salt call first, then the derived secret. */
export async function signInBody(
  call: StaffCall,
  username: string,
  password: string,
): Promise<{ username: string; password: string }> {
  const answer = await call('POST', '/api/account/token/salt', { body: { username } });
  if (answer.status !== 200) throw new Error(`The salt of ${username} answered ${answer.status}`);
  const salt = answer.body as SaltResponse;
  if (salt.kdf === 'legacy') return { username, password };
  return { username, password: (await staffSecrets(password, salt.salt, salt.kdf)).authSecret };
}

/** The signed-in person's keys, unlocked with their password as the page does after sign-in. */
export async function unlockOwnKeys(call: StaffCall, token: string, password: string): Promise<PersonKeys> {
  const own = (await call('GET', '/api/account/profile/keys', { bearer: token })).body as OwnKeysResponse;
  if (!own.person || !own.password) throw new Error('This person has no password keys');
  const { unlockKey } = await staffSecrets(password, own.password.salt, own.password.kdf);
  const copy = own.person.unlock.find((method) => method.method === 'password');
  if (!copy) throw new Error('No password copy of the keys');
  return unlockPersonKeys(unlockKey, copy.sealed_private_keys, own.person);
}

/** The company private key (current version) as an admin's browser opens it from its grant. */
export async function openCompanyKey(call: StaffCall, token: string, person: PersonKeys): Promise<CryptoKey> {
  const keys = (await call('GET', '/api/account/company/keys', { bearer: token })).body as CompanyKeysResponse;
  if (!keys.grant) throw new Error('This person holds no grant of the company key');
  const secret = await openCompanyKeyGrant(person, keys.grant, keys.public_key);
  try {
    return await importCompanyPrivateKey(secret);
  } finally {
    secret.fill(0);
  }
}

/**
 * What an admin's browser does when it approves a team member: the company key wrapped to the member's current
 * keys, with the fingerprint the admin compared (here: computed from those keys).
 */
export async function grantReportAccess(
  call: StaffCall,
  admin: { token: string; password: string },
  userId: string,
): Promise<void> {
  const person = await unlockOwnKeys(call, admin.token, admin.password);
  const keys = (await call('GET', '/api/account/company/keys', { bearer: admin.token })).body as CompanyKeysResponse;
  const team = (await call('GET', '/api/account/company/keys/people', { bearer: admin.token }))
    .body as TeamKeysResponse;
  const member = team.people.find((candidate) => candidate.user_id === userId);
  if (!keys.grant || !member?.public_key || !member.fingerprint)
    throw new Error('The admin holds no company key, or the member has no keys yet');
  const secret = await openCompanyKeyGrant(person, keys.grant, keys.public_key);
  try {
    const granted = await call('POST', '/api/account/company/keys/grants', {
      bearer: admin.token,
      body: {
        user_id: userId,
        key_version: keys.key_version,
        fingerprint: member.fingerprint,
        grant: await grantCompanyKey(secret, keys.public_key, member.public_key),
        ...(member.access_request ? { request_id: member.access_request.id } : {}),
      },
    });
    if (granted.status !== 204) throw new Error(`The grant was refused: ${granted.status}`);
  } finally {
    secret.fill(0);
  }
}

/**
 * The keys' password copy sealed again from one password derivation to another (a password change, a kdf
 * upgrade): absent when the person has no keys or no password copy.
 */
async function resealedPasswordCopy(own: OwnKeysResponse, from: StaffSecrets, to: StaffSecrets) {
  const copy = own.person?.unlock.find((method) => method.method === 'password');
  if (!own.person || !copy) return {};
  return {
    sealed_private_keys: await resealPersonSecret(from.unlockKey, copy.sealed_private_keys, own.person, to.unlockKey),
  };
}

async function ownPasswordKeys(call: StaffCall, token: string) {
  const own = (await call('GET', '/api/account/profile/keys', { bearer: token })).body as OwnKeysResponse;
  if (!own.password) throw new Error('This person has no password');
  return { own, password: own.password };
}

/** The account page's password change: both secrets derived, the keys' password copy sealed again under the new one. */
export async function passwordChangeBody(call: StaffCall, token: string, current: string, next: string) {
  const { own, password } = await ownPasswordKeys(call, token);
  const previous = await staffSecrets(current, password.salt, password.kdf);
  const kdfSalt = newKdfSalt();
  const fresh = await staffSecrets(next, kdfSalt);
  return {
    password: fresh.authSecret,
    kdf: CURRENT_KDF,
    kdf_salt: kdfSalt,
    current_password: previous.authSecret,
    ...(await resealedPasswordCopy(own, previous, fresh)),
  };
}

/**
 * What the shell sends after a sign-in whose salt named an older kdf (PUT /api/account/profile/password/kdf): the
 * same password derived with the current kdf and a fresh salt, proven by the old derivation's secret.
 */
export async function kdfUpgradeBody(call: StaffCall, token: string, password: string) {
  const { own, password: stored } = await ownPasswordKeys(call, token);
  const previous = await staffSecrets(password, stored.salt, stored.kdf);
  const kdfSalt = newKdfSalt();
  const fresh = await staffSecrets(password, kdfSalt, CURRENT_KDF);
  return {
    kdf: CURRENT_KDF,
    password: fresh.authSecret,
    kdf_salt: kdfSalt,
    current_password: previous.authSecret,
    ...(await resealedPasswordCopy(own, previous, fresh)),
  };
}
