import { utf8Decode, utf8Encode } from './encoding';
import { CryptoFormatError } from './errors';
import { encodeVersioned, parseVersioned } from './format';
import { PARAMS } from './params';
import type { PersonKeys } from './person-keys';
import { importVerifyingKeyRaw, randomBytes, subtle } from './webcrypto';

/** A member's signing key as the discloser's browser trusts it: by its opaque key id, with the role it was listed as. */
export interface TeamKey {
  key_id: string;
  /** ECDSA P-256, `v1.<point>` */
  signing_public_key: string;
  role: 'ADMIN' | 'REVIEWER' | 'HANDLER';
}

/** What a staff signature covers besides the ciphertexts: a message, or a file's name and key. */
export type SignedKind = 'message' | 'file';

/** A staff signature as the signer's browser makes it: a nonce of its own and the signature. */
export interface StaffSignatureParts {
  nonce: string;
  /** `v2.<64 bytes, IEEE P1363 r‖s>` */
  signature: string;
}

/**
 * A staff signature as stored beside its content: the parts, and whose key made it (`signer_key_id`: the sender's
 * current key when the server took the message; not signed, since the signature itself verifies under one key only).
 */
export interface StaffSignature extends StaffSignatureParts {
  signer_key_id: string;
}

/** An admin's word that a member's signing key belongs to the case team of `company_id` (docs/security.md). */
export interface KeyEndorsement {
  company_id: string;
  key_id: string;
  signing_public_key: string;
  role: TeamKey['role'];
  /** ISO 8601, the endorsing browser's clock. */
  endorsed_at: string;
  endorser_key_id: string;
  /** `v2.<64 bytes>` */
  signature: string;
}

const SIGNATURE_BYTES = 64;
const NONCE_BYTES = 16;
const ecdsaParams = { name: PARAMS.v2.ecdsa.name, hash: PARAMS.v2.ecdsa.hash } as const;

/**
 * The bytes a staff signature is over: a JSON array of strings (one encoding, no separator to forge) naming the
 * purpose, the case (its incident public key), the kind, the nonce and each ciphertext. A signature moved to another
 * case, kind or ciphertext no longer verifies.
 */
const staffSignedBytes = (incidentPublicKey: string, kind: SignedKind, nonce: string, parts: string[]) =>
  utf8Encode(JSON.stringify([PARAMS.v2.info.staffSignature, incidentPublicKey, kind, nonce, ...parts]));

const endorsementBytes = (endorsement: Omit<KeyEndorsement, 'signature'>) =>
  utf8Encode(
    JSON.stringify([
      PARAMS.v2.info.keyEndorsement,
      endorsement.company_id,
      endorsement.key_id,
      endorsement.signing_public_key,
      endorsement.role,
      endorsement.endorsed_at,
      endorsement.endorser_key_id,
    ]),
  );

async function sign(person: PersonKeys, data: Uint8Array<ArrayBuffer>): Promise<string> {
  const signature = new Uint8Array(await subtle().sign(ecdsaParams, person.signingKey, data));
  return encodeVersioned([signature], PARAMS.v2.version);
}

/** False for any signature that does not verify, is malformed, or names a key that is not a P-256 point. */
async function verify(signingPublicKey: string, signature: string, data: Uint8Array<ArrayBuffer>): Promise<boolean> {
  try {
    const [raw] = parseVersioned(signingPublicKey, 'signing public key', [PARAMS.ecdh.publicKeyBytes]);
    const [bytes] = parseVersioned(signature, 'signature', [SIGNATURE_BYTES], PARAMS.v2.version);
    return await subtle().verify(ecdsaParams, await importVerifyingKeyRaw(raw), bytes, data);
  } catch {
    return false;
  }
}

/**
 * A staff member's browser signs what it sends to a case's discloser (a message's ciphertext; a file's encrypted
 * name and key) with their signing key.
 */
export async function signStaffContent(
  person: PersonKeys,
  input: { incidentPublicKey: string; kind: SignedKind; ciphertexts: string[] },
): Promise<StaffSignatureParts> {
  const nonce = encodeVersioned([randomBytes(NONCE_BYTES)], PARAMS.v2.version);
  const data = staffSignedBytes(input.incidentPublicKey, input.kind, nonce, input.ciphertexts);
  return { nonce, signature: await sign(person, data) };
}

/**
 * Whether `signature` is a signature over these ciphertexts of this case by a key of `team` (the pinned list and
 * what endorsements reach from it: resolveTeamKeys). Unsigned (null), wrongly signed, or by an unknown key: false.
 */
export async function verifyStaffContent(
  team: ReadonlyMap<string, TeamKey>,
  input: { incidentPublicKey: string; kind: SignedKind; ciphertexts: string[]; signature: StaffSignature | null },
): Promise<boolean> {
  const { signature } = input;
  if (!signature) return false;
  const key = team.get(signature.signer_key_id);
  if (!key) return false;
  const data = staffSignedBytes(input.incidentPublicKey, input.kind, signature.nonce, input.ciphertexts);
  return verify(key.signing_public_key, signature.signature, data);
}

/** An admin's browser endorses a member's signing key (at approval), with the admin's own signing key. */
export async function endorseTeamKey(
  admin: PersonKeys,
  input: Omit<KeyEndorsement, 'signature' | 'endorsed_at'> & { endorsed_at?: string },
): Promise<KeyEndorsement> {
  const endorsement = { ...input, endorsed_at: input.endorsed_at ?? new Date().toISOString() };
  return { ...endorsement, signature: await sign(admin, endorsementBytes(endorsement)) };
}

/**
 * Whether `endorsement` is signed by `endorserSigningPublicKey`. The discloser's browser only asks it of an endorser
 * it trusts (resolveTeamKeys); the server asks it of the endorser's stored key, to refuse garbage before storing.
 */
export const verifyKeyEndorsement = (endorserSigningPublicKey: string, endorsement: KeyEndorsement) =>
  verify(endorserSigningPublicKey, endorsement.signature, endorsementBytes(endorsement));

/**
 * The team keys the discloser's browser trusts: those pinned at report time, and every key an endorsement reaches
 * from them — signed by a trusted ADMIN key, for this company. Endorsed admins may endorse in turn, so the walk
 * repeats until nothing more is reached (a loop of endorsements adds nothing: it needs a trusted start). A key id
 * already trusted keeps its pinned key; an endorsement cannot replace it.
 */
export async function resolveTeamKeys(
  pinned: readonly TeamKey[],
  endorsements: readonly KeyEndorsement[],
  companyId: string,
): Promise<Map<string, TeamKey>> {
  const team = new Map(pinned.map((key) => [key.key_id, key]));
  let pending = endorsements.filter((entry) => entry.company_id === companyId);
  for (let grew = true; grew;) {
    grew = false;
    const next: KeyEndorsement[] = [];
    for (const entry of pending) {
      if (team.has(entry.key_id)) continue;
      const endorser = team.get(entry.endorser_key_id);
      if (endorser?.role !== 'ADMIN') {
        next.push(entry);
        continue;
      }
      if (await verifyKeyEndorsement(endorser.signing_public_key, entry)) {
        team.set(entry.key_id, {
          key_id: entry.key_id,
          signing_public_key: entry.signing_public_key,
          role: entry.role,
        });
        grew = true;
      }
    }
    pending = next;
  }
  return team;
}

/** The pinned list as sealed data carries it: a versioned JSON list, parsed strictly. */
export function encodeTeamKeys(keys: readonly TeamKey[]): Uint8Array<ArrayBuffer> {
  return utf8Encode(
    JSON.stringify({
      v: 1,
      keys: keys.map(({ key_id, signing_public_key, role }) => ({ key_id, signing_public_key, role })),
    }),
  );
}

const ROLES = new Set(['ADMIN', 'REVIEWER', 'HANDLER']);

export function decodeTeamKeys(bytes: Uint8Array): TeamKey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decode(bytes));
  } catch {
    throw new CryptoFormatError('Malformed team key list');
  }
  const keys = (parsed as { v?: unknown; keys?: unknown } | null)?.keys;
  if ((parsed as { v?: unknown }).v !== 1 || !Array.isArray(keys))
    throw new CryptoFormatError('Malformed team key list');
  return keys.map((key: Partial<TeamKey> | null) => {
    if (
      typeof key?.key_id !== 'string' ||
      typeof key.signing_public_key !== 'string' ||
      typeof key.role !== 'string' ||
      !ROLES.has(key.role)
    )
      throw new CryptoFormatError('Malformed team key list');
    return { key_id: key.key_id, signing_public_key: key.signing_public_key, role: key.role };
  });
}
