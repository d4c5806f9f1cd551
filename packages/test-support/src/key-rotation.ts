import type {
  CompanyKeyRotationRequest,
  CompanyKeysResponse,
  RewrapBatchResult,
  RewrapPage,
  TeamKeysResponse,
} from '@whistle/contracts';
import {
  createCompanyKeyPair,
  createRecoveryKey,
  grantCompanyKey,
  importCompanyPrivateKey,
  openCompanyKeyGrant,
  personFingerprint,
  rewrapIncidentPassphrase,
  sealCompanyKeyForRecovery,
  type PersonKeys,
  type RecoveryKey,
} from '@whistle/crypto';
import type { StaffCall } from './staff-browser';

/**
 * What the security page's "Rotate company key" does in an admin's browser (docs/security.md, "Rotation"), for
 * tests that speak HTTP: a new pair, granted to everyone who holds the current key (their fingerprints checked
 * against their keys), sealed for a new recovery kit.
 */
export async function companyKeyRotationBody(
  call: StaffCall,
  token: string,
): Promise<{ body: CompanyKeyRotationRequest; recovery: RecoveryKey; publicKey: string }> {
  const keys = (await call('GET', '/api/account/company/keys', { bearer: token })).body as CompanyKeysResponse;
  const team = (await call('GET', '/api/account/company/keys/people', { bearer: token })).body as TeamKeysResponse;
  const next = await createCompanyKeyPair();
  const recovery = await createRecoveryKey();
  try {
    const grants = [];
    for (const member of team.people.filter((candidate) => candidate.company_key === 'granted')) {
      const publicKeys = { public_key: member.public_key!, signing_public_key: member.signing_public_key! };
      if ((await personFingerprint(publicKeys)) !== member.fingerprint) throw new Error('A fingerprint does not match');
      grants.push({
        user_id: member.user_id,
        fingerprint: member.fingerprint,
        grant: await grantCompanyKey(next.secret, next.public_key, member.public_key!),
      });
    }
    return {
      body: {
        key_version: keys.key_version,
        public_key: next.public_key,
        aes_encrypted_private_key: await sealCompanyKeyForRecovery(recovery, next.secret, next.public_key),
        grants,
      },
      recovery,
      publicKey: next.public_key,
    };
  } finally {
    next.secret.fill(0);
  }
}

/** The current and previous company private keys as an admin's browser opens them from its grants during a rotation. */
export async function rotationKeys(call: StaffCall, token: string, person: PersonKeys) {
  const keys = (await call('GET', '/api/account/company/keys', { bearer: token })).body as CompanyKeysResponse;
  if (!keys.grant || !keys.rotation?.previous_grant) throw new Error('No rotation under way, or no grants of it');
  const open = async (grant: string, publicKey: string) => {
    const secret = await openCompanyKeyGrant(person, grant, publicKey);
    try {
      return await importCompanyPrivateKey(secret);
    } finally {
      secret.fill(0);
    }
  };
  return {
    keyVersion: keys.key_version,
    publicKey: keys.public_key,
    current: await open(keys.grant, keys.public_key),
    previous: await open(keys.rotation.previous_grant, keys.rotation.previous_public_key),
  };
}

/**
 * The re-wrapping half of a rotation, as the security page runs it: page through the cases still under an older key,
 * re-wrap each in the browser, store each batch, then ask the incident service to complete.
 */
export async function rewrapCompanyCases(
  call: StaffCall,
  token: string,
  keys: { keyVersion: number; publicKey: string; current: CryptoKey; previous: CryptoKey },
  options: { limit?: number; complete?: boolean } = {},
): Promise<{ rewrapped: number; complete: { status: number; body: unknown } | undefined }> {
  let rewrapped = 0;
  let after: string | null = null;
  do {
    const query = new URLSearchParams({ key_version: String(keys.keyVersion), limit: String(options.limit ?? 200) });
    if (after) query.set('after', after);
    const answer = await call('GET', `/api/incident/company-key/rewrap?${query}`, { bearer: token });
    if (answer.status !== 200) throw new Error(`The page of cases answered ${answer.status}`);
    const page = answer.body as RewrapPage;
    const wrappings = await Promise.all(
      page.cases.map(async (item) => ({
        uuid: item.uuid,
        company_encrypted_passphrase: (
          await rewrapIncidentPassphrase({
            ...item,
            companyPrivateKeys: [keys.previous, keys.current],
            newCompanyPublicKey: keys.publicKey,
          })
        ).company_encrypted_passphrase,
      })),
    );
    if (wrappings.length > 0) {
      const stored = await call('PUT', '/api/incident/company-key/rewrap', {
        bearer: token,
        body: { key_version: keys.keyVersion, wrappings },
      });
      if (stored.status !== 200) throw new Error(`The batch answered ${stored.status}`);
      rewrapped += (stored.body as RewrapBatchResult).stored;
    }
    after = page.next_after;
  } while (after);
  const complete =
    options.complete === false
      ? undefined
      : await call('POST', '/api/incident/company-key/rewrap/complete', {
          bearer: token,
          body: { key_version: keys.keyVersion },
        });
  return { rewrapped, complete };
}
