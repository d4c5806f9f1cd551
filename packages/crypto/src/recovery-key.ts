import { fromCrockfordBase32, groupSymbols, toCrockfordBase32 } from './base32';
import { constantTimeEqual } from './compare';
import { concatBytes, type Bytes } from './encoding';
import { CryptoFormatError } from './errors';
import { PARAMS } from './params';
import { randomBytes, sha256 } from './webcrypto';

const { bytes, checksumBytes, groupSize } = PARAMS.v2.recoveryKey;

/** The company's recovery key: 256 random bits, and how it is printed (`ABCDE FGHIJ …`, 11 groups). */
export interface RecoveryKey {
  readonly key: Bytes;
  readonly text: string;
}

/** A checksum so a typo is told apart from a wrong kit: the first bytes of SHA-256 of the key. */
const checksumOf = async (key: Bytes) => (await sha256(key)).slice(0, checksumBytes);

export async function createRecoveryKey(): Promise<RecoveryKey> {
  const key = randomBytes(bytes);
  return { key, text: groupSymbols(toCrockfordBase32(concatBytes(key, await checksumOf(key))), groupSize) };
}

/**
 * What the person typed or the kit file holds, back to the key. A CryptoFormatError says the text cannot be a
 * recovery key (wrong length, a symbol that does not exist, a typo the checksum catches); a right-looking key of
 * another company or an older kit only fails when it opens nothing (DecryptionError).
 */
export async function parseRecoveryKey(text: string): Promise<RecoveryKey> {
  const decoded = fromCrockfordBase32(text, bytes + checksumBytes);
  const key = decoded.slice(0, bytes);
  if (!constantTimeEqual(decoded.slice(bytes), await checksumOf(key)))
    throw new CryptoFormatError('The recovery key has a typo');
  return { key, text: groupSymbols(toCrockfordBase32(decoded), groupSize) };
}
