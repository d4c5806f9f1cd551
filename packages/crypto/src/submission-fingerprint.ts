import { groupSymbols, toCrockfordBase32 } from './base32';
import { concatBytes, utf8Encode, type Bytes } from './encoding';
import { PARAMS } from './params';
import { sha256 } from './webcrypto';

const { symbols, groupSize } = PARAMS.submissionFingerprint;

/**
 * What the discloser's browser sends on POST /api/incident/ and the server keeps unchanged for as long as the case
 * lives: the incident key pair as sealed (public key, sealed private key, its salt and IV) and every encrypted
 * report field. Both the create request and the staff case view (`keys` and `fields`) have this shape.
 *
 * Not in it, on purpose: the company-wrapped passphrase (a company key rotation re-wraps it, and it changes nothing
 * the report says: the sealed private key's associated data is the public key, so another key pair cannot be
 * slipped in without changing both), the discloser's sealed passphrase and auth token (the staff view has neither;
 * the server keeps only a hash of the token), and files and messages (they come after the report).
 */
export interface SubmittedCiphertexts {
  credential: { public_key: string; aes_encrypted_private_key: string };
  aes_salt: string;
  aes_iv: string;
  fields: readonly { name: string; value: string }[];
}

/** A 4-byte big-endian length, then the UTF-8 bytes: no two lists of strings encode alike. */
function lengthPrefixed(text: string): Bytes {
  const bytes = utf8Encode(text);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, bytes.length);
  return concatBytes(length, bytes);
}

const byNameThenValue = (a: { name: string; value: string }, b: { name: string; value: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;

/**
 * The proof of submission (issue 26): SHA-256 over `whistle/v1/submission-fingerprint`, then, each length-prefixed,
 * the public key, the sealed private key, the salt, the IV, the number of fields (in decimal) and each field's name
 * and value, fields sorted by name. Cut to 160 bits and written as 32 Crockford base32 symbols in groups of 4
 * (`K3VQ 8M2X …`): the discloser's receipt and the case page show the same text for the same stored report, and a
 * report with the same fingerprint but other content takes about 2^80 tries to make even for its own author.
 *
 * A hash of ciphertexts and public values only: it reveals nothing the server does not already store.
 */
export async function submissionFingerprint(submitted: SubmittedCiphertexts): Promise<string> {
  const fields = [...submitted.fields].sort(byNameThenValue);
  const encoded = concatBytes(
    utf8Encode(PARAMS.info.submissionFingerprint),
    ...[
      submitted.credential.public_key,
      submitted.credential.aes_encrypted_private_key,
      submitted.aes_salt,
      submitted.aes_iv,
      String(fields.length),
      ...fields.flatMap((field) => [field.name, field.value]),
    ].map(lengthPrefixed),
  );
  return groupSymbols(toCrockfordBase32(await sha256(encoded), symbols), groupSize);
}
