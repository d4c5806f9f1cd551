import {
  deriveDiscloserAuthToken,
  generateDiscloserPassphrase,
  openForDiscloser,
  openTeamKeysForDiscloser,
  sealForDiscloser,
  sealTeamKeysForDiscloser,
} from './discloser';
import { toBase64Url, type Bytes } from './encoding';
import { DecryptionError } from './errors';
import { versionOf } from './format';
import {
  openSealedPrivateKey,
  passphraseFromTeamSecret,
  sealIncidentPrivateKey,
  type IncidentCredential,
  type IncidentHandle,
  type IncidentKeyHolder,
  type StoredIncidentKeys,
} from './incident-key';
import { PARAMS } from './params';
import type { PersonKeys } from './person-keys';
import type { TeamKey } from './team-keys';
import { encodePublicKey, unwrapBound, unwrapWithPrivateKey, wrapBound, wrapToPublicKey } from './wrap';
import {
  exportPrivateKeyPkcs8,
  exportPublicKeyRaw,
  generateExportableKeyPair,
  importPrivateKeyPkcs8,
  randomBytes,
} from './webcrypto';

export type { IncidentCredential, IncidentHandle } from './incident-key';

/** The key-related fields of POST /api/incident/ (spec §3), ready to spread into the body. */
export interface IncidentCreatePayloadKeys {
  credential: IncidentCredential;
  aes_salt: string;
  aes_iv: string;
  company_encrypted_passphrase: string;
  discloser_encrypted_passphrase: string;
  discloser_auth_token: string;
  /**
   * Not in the spec: the case team's signing keys, sealed for the discloser (sealTeamKeysForDiscloser); the
   * discloser's sealed passphrase is bound to it. Absent for a report made without a list.
   */
  discloser_team_keys?: string;
}

export interface IncidentCredentials {
  /** Send to the server. Kept apart from the secrets below so a spread cannot leak them. */
  payload: IncidentCreatePayloadKeys;
  /** The case team secret wrapped to each of `recipients` (per-case grants), by their opaque key id; [] without any. */
  grants: { key_id: string; wrapped_passphrase: string }[];
  /** Shown once, inside the secret code; never sent. */
  discloserPassphrase: string;
  /** The discloser's handle: no notes key (the case team secret is forgotten once wrapped). */
  incident: IncidentHandle;
}

/**
 * The discloser's browser (or a staff member's, recording a report), once the company public key is known: a P-256
 * incident key pair (about a millisecond, no RSA), a random 256-bit case team secret wrapped to the company and to
 * each recipient, the incident passphrase derived from it sealing the private key (`v2.`) and sealed for the
 * discloser, and the discloser auth token. The team secret is wiped here: the discloser keeps only the passphrase,
 * which does not give the secret or the notes key.
 */
export async function createIncidentCredentials(
  companyPublicKey: string,
  recipients: readonly { key_id: string; public_key: string }[] = [],
  /** The team's signing keys to pin for the discloser's page (docs/security.md, "Signed staff messages"). */
  teamKeys?: readonly TeamKey[],
): Promise<IncidentCredentials> {
  const pair = await generateExportableKeyPair();
  const publicKey = encodePublicKey(await exportPublicKeyRaw(pair.publicKey));
  const teamSecret = randomBytes(PARAMS.secretBytes);
  const incidentPassphrase = await passphraseFromTeamSecret(teamSecret, publicKey);
  const discloserPassphrase = generateDiscloserPassphrase();
  const salt = randomBytes(PARAMS.hkdf.saltBytes);
  const iv = randomBytes(PARAMS.aes.ivBytes);
  const pkcs8 = await exportPrivateKeyPkcs8(pair.privateKey);
  const sealedTeamKeys = teamKeys ? await sealTeamKeysForDiscloser(discloserPassphrase, teamKeys) : undefined;

  const [sealedPrivateKey, companyEncrypted, discloserEncrypted, authToken, privateKey] = await Promise.all([
    sealIncidentPrivateKey(incidentPassphrase, pkcs8, publicKey, salt, iv),
    wrapToPublicKey(companyPublicKey, teamSecret, 'incident-passphrase'),
    sealForDiscloser(discloserPassphrase, incidentPassphrase, sealedTeamKeys),
    deriveDiscloserAuthToken(discloserPassphrase),
    importPrivateKeyPkcs8(pkcs8),
  ]);
  pkcs8.fill(0);
  incidentPassphrase.fill(0);
  let grants: IncidentCredentials['grants'];
  try {
    grants = await Promise.all(
      recipients.map(async (recipient) => ({
        key_id: recipient.key_id,
        wrapped_passphrase: await wrapPassphraseTo(teamSecret, publicKey, recipient.public_key),
      })),
    );
  } finally {
    teamSecret.fill(0);
  }

  return {
    payload: {
      credential: { public_key: publicKey, aes_encrypted_private_key: sealedPrivateKey },
      aes_salt: toBase64Url(salt),
      aes_iv: toBase64Url(iv),
      company_encrypted_passphrase: companyEncrypted,
      discloser_encrypted_passphrase: discloserEncrypted,
      discloser_auth_token: authToken,
      ...(sealedTeamKeys ? { discloser_team_keys: sealedTeamKeys } : {}),
    },
    grants,
    discloserPassphrase,
    incident: { publicKey, privateKey },
  };
}

/** Opens the case with what `holder` unwrapped (openSealedPrivateKey), then wipes it. */
async function openAndWipe(unwrapped: Bytes, holder: IncidentKeyHolder, stored: StoredIncidentKeys) {
  try {
    return await openSealedPrivateKey(unwrapped, holder, stored);
  } finally {
    unwrapped.fill(0);
  }
}

/**
 * What the company wrapping carries — the case team secret, or the passphrase of a case made before team secrets —
 * with the first of `companyPrivateKeys` that opens it: during a company key rotation a case is wrapped to either
 * version. Any other failure is one DecryptionError.
 */
async function unwrapCompanyPassphrase(
  companyPrivateKeys: readonly CryptoKey[],
  wrapped: string,
): Promise<{ teamHeld: Bytes; keyIndex: number }> {
  for (const [keyIndex, key] of companyPrivateKeys.entries()) {
    try {
      return { teamHeld: await unwrapWithPrivateKey(key, wrapped, 'incident-passphrase'), keyIndex };
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
    }
  }
  throw new DecryptionError();
}

/**
 * Review page: open the incident with the passphrase from the secret code. A report sealed with a team key list
 * opens only with that very list (`discloser_team_keys`): dropped or swapped, it is a DecryptionError.
 */
export async function openIncidentAsDiscloser(
  input: StoredIncidentKeys & {
    discloser_encrypted_passphrase: string;
    discloser_team_keys?: string | null;
    discloserPassphrase: string;
  },
): Promise<IncidentHandle> {
  const incidentPassphrase = await openForDiscloser(
    input.discloserPassphrase,
    input.discloser_encrypted_passphrase,
    input.discloser_team_keys,
  );
  return openAndWipe(incidentPassphrase, 'discloser', input);
}

/**
 * The team keys pinned in a report at its making, for the discloser's page; null for a report made before pinning
 * (its sealed passphrase is v1 and bound to nothing: docs/security.md says the limit). Call after
 * openIncidentAsDiscloser succeeded, which proved the list is the one the report was sealed with.
 */
export async function openPinnedTeamKeys(input: {
  discloser_encrypted_passphrase: string;
  discloser_team_keys?: string | null;
  discloserPassphrase: string;
}): Promise<TeamKey[] | null> {
  if (versionOf(input.discloser_encrypted_passphrase) !== PARAMS.v2.version || !input.discloser_team_keys) return null;
  return openTeamKeysForDiscloser(input.discloserPassphrase, input.discloser_team_keys);
}

/**
 * Staff browser: open the incident with the unlocked company private key — or, while a rotation re-wraps the cases,
 * with whichever of the current and previous keys (`previousCompanyPrivateKey`) wraps it.
 */
export async function openIncidentAsCompany(
  input: StoredIncidentKeys & {
    companyPrivateKey: CryptoKey;
    previousCompanyPrivateKey?: CryptoKey;
    company_encrypted_passphrase: string;
  },
): Promise<IncidentHandle> {
  const keys = [input.companyPrivateKey, ...(input.previousCompanyPrivateKey ? [input.previousCompanyPrivateKey] : [])];
  const { teamHeld } = await unwrapCompanyPassphrase(keys, input.company_encrypted_passphrase);
  return openAndWipe(teamHeld, 'team', input);
}

/**
 * A company key rotation, in an admin's browser (docs/security.md, "Rotation"): what the company wrapping carries
 * (team secret or, for an old case, passphrase) opened with whichever of `companyPrivateKeys` wraps it, then checked
 * against the incident — it must open the incident's sealed private key, so a value the server made up is refused
 * rather than re-wrapped — and wrapped unchanged to
 * `newCompanyPublicKey` (v1 ECIES, as a discloser wraps it). `newCompanyPublicKey` is one the browser made or
 * checked against its own grant, never one taken from the server alone. `keyIndex`: which key opened it.
 */
export async function rewrapIncidentPassphrase(
  input: StoredIncidentKeys & {
    company_encrypted_passphrase: string;
    companyPrivateKeys: readonly CryptoKey[];
    newCompanyPublicKey: string;
  },
): Promise<{ company_encrypted_passphrase: string; keyIndex: number }> {
  const { teamHeld, keyIndex } = await unwrapCompanyPassphrase(
    input.companyPrivateKeys,
    input.company_encrypted_passphrase,
  );
  try {
    await openSealedPrivateKey(teamHeld, 'team', input);
    const rewrapped = await wrapToPublicKey(input.newCompanyPublicKey, teamHeld, 'incident-passphrase');
    return { company_encrypted_passphrase: rewrapped, keyIndex };
  } finally {
    teamHeld.fill(0);
  }
}

/** A per-case grant's binding: the case (its incident public key, unique to it) and the recipient's key. */
const passphraseGrantContext = (incidentPublicKey: string, recipientPublicKey: string) =>
  `incident-passphrase\n${incidentPublicKey}\n${recipientPublicKey}`;

/** The team's case secret wrapped to one person (v2, bound to the case and to their key). */
function wrapPassphraseTo(teamHeld: Bytes, incidentPublicKey: string, recipientPublicKey: string): Promise<string> {
  return wrapBound(
    recipientPublicKey,
    teamHeld,
    'incident-passphrase',
    passphraseGrantContext(incidentPublicKey, recipientPublicKey),
  );
}

/**
 * What the team holds (team secret, or an old case's passphrase) checked against the case (it must open the
 * incident's sealed private key: a value the server made up, or one moved from another case, is refused and wrapped
 * to nobody), then wrapped unchanged to each recipient's key in their order; wiped after.
 */
async function wrapCheckedPassphrase(
  teamHeld: Bytes,
  input: StoredIncidentKeys & { recipientPublicKeys: readonly string[] },
): Promise<string[]> {
  try {
    await openSealedPrivateKey(teamHeld, 'team', input);
    return await Promise.all(
      input.recipientPublicKeys.map((key) => wrapPassphraseTo(teamHeld, input.credential.public_key, key)),
    );
  } finally {
    teamHeld.fill(0);
  }
}

/**
 * Per-case grants, in an assigning admin's browser (docs/security.md, "Per-case grants"): the team secret (an old
 * case's passphrase) opened with whichever of `companyPrivateKeys` wraps it, checked against the case (it must open the incident's
 * sealed private key: a value the server made up, or one moved from another case, is refused and wrapped to nobody),
 * then wrapped to each recipient's ECDH public key — keys the caller compared by fingerprint, never ones the server
 * merely names. One wrapping per recipient, in their order.
 */
export async function grantIncidentPassphrase(
  input: StoredIncidentKeys & {
    company_encrypted_passphrase: string;
    companyPrivateKeys: readonly CryptoKey[];
    recipientPublicKeys: readonly string[];
  },
): Promise<string[]> {
  const { teamHeld } = await unwrapCompanyPassphrase(input.companyPrivateKeys, input.company_encrypted_passphrase);
  return wrapCheckedPassphrase(teamHeld, input);
}

/**
 * Per-case grants made with one's own grant, for a case no company key wraps (its discloser kept an admin out:
 * docs/security.md, "Keeping people out"): the team secret opened with `person`'s key, checked against the case like
 * grantIncidentPassphrase, and wrapped to each recipient's ECDH public key, in their order.
 */
export async function regrantIncidentPassphrase(
  input: StoredIncidentKeys & { grant: string; person: PersonKeys; recipientPublicKeys: readonly string[] },
): Promise<string[]> {
  const teamHeld = await unwrapBound(
    input.person.decryptionKey,
    input.grant,
    'incident-passphrase',
    passphraseGrantContext(input.credential.public_key, input.person.publicKeys.public_key),
  );
  return wrapCheckedPassphrase(teamHeld, input);
}

/**
 * A handler's or reviewer's browser: opens the case with their own grant and their ECDH private key. The wrapping
 * must be bound to this case and to their key, and what it carries must open the incident's sealed private key: a
 * grant moved from another case or person, or made up, is a DecryptionError. A new case's handle has its notes key.
 */
export async function openIncidentWithGrant(
  input: StoredIncidentKeys & { grant: string; person: PersonKeys },
): Promise<IncidentHandle> {
  const teamHeld = await unwrapBound(
    input.person.decryptionKey,
    input.grant,
    'incident-passphrase',
    passphraseGrantContext(input.credential.public_key, input.person.publicKeys.public_key),
  );
  return openAndWipe(teamHeld, 'team', input);
}
