import { groupSymbols, toCrockfordBase32 } from './base32';
import { concatBytes, utf8Encode } from './encoding';
import { parseVersioned } from './format';
import { PARAMS } from './params';
import { sha256 } from './webcrypto';

const { symbols, groupSize } = PARAMS.v2.fingerprint;

/**
 * What people compare to know a key is the one they expect: SHA-256 over the public keys (in order), cut to
 * 100 bits, as `K3VQ 8M2X …` (5 groups of 4). Short enough to read over the phone; finding another key with the
 * same fingerprint takes 2^100 tries.
 */
export async function fingerprintOf(...publicKeys: string[]): Promise<string> {
  const points = publicKeys.map((key) => parseVersioned(key, 'public key', [PARAMS.ecdh.publicKeyBytes])[0]);
  const digest = await sha256(concatBytes(utf8Encode(PARAMS.v2.info.fingerprint), ...points));
  return groupSymbols(toCrockfordBase32(digest, symbols), groupSize);
}
