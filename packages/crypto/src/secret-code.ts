import { normalizeDiscloserPassphrase } from './discloser';
import { CryptoFormatError } from './errors';
import { PARAMS } from './params';

export interface SecretCode {
  retrievalId: string;
  /** Canonical grouped form (see normalizeDiscloserPassphrase). */
  passphrase: string;
}

function checkRetrievalId(retrievalId: string): void {
  if (!PARAMS.retrievalIdPattern.test(retrievalId)) throw new CryptoFormatError('Malformed secret code: retrieval id');
}

/** The one-time code shown after submitting: `retrieval_id:discloser_passphrase` (spec §4). */
export function formatSecretCode(retrievalId: string, discloserPassphrase: string): string {
  checkRetrievalId(retrievalId);
  return `${retrievalId}:${normalizeDiscloserPassphrase(discloserPassphrase)}`;
}

/**
 * Reads a typed or pasted code: surrounding whitespace is ignored, exactly one colon separates the
 * retrieval id from the passphrase. Errors never echo the code.
 */
export function parseSecretCode(code: string): SecretCode {
  if (typeof code !== 'string') throw new CryptoFormatError('Malformed secret code');
  const trimmed = code.trim();
  const colon = trimmed.indexOf(':');
  if (colon < 0) throw new CryptoFormatError('Malformed secret code: missing ":"');
  const retrievalId = trimmed.slice(0, colon).trim();
  const rest = trimmed.slice(colon + 1);
  if (rest.includes(':')) throw new CryptoFormatError('Malformed secret code: more than one ":"');
  checkRetrievalId(retrievalId);
  try {
    return { retrievalId, passphrase: normalizeDiscloserPassphrase(rest) };
  } catch {
    throw new CryptoFormatError('Malformed secret code: passphrase');
  }
}

/**
 * The code cut into groups for reading aloud and writing down: the retrieval id in fours, then the passphrase's
 * own groups, each separator kept at the end of its group. The groups joined are the code, character for character.
 */
export function secretCodeGroups(code: string): string[] {
  const colon = code.indexOf(':');
  const fours = (text: string) => text.match(/.{1,4}/g) ?? [];
  if (colon < 0) return fours(code);
  const idGroups = fours(code.slice(0, colon));
  idGroups[idGroups.length - 1] = `${idGroups.at(-1) ?? ''}:`;
  const passphraseGroups = code
    .slice(colon + 1)
    .split('-')
    .map((group, index, all) => (index < all.length - 1 ? `${group}-` : group));
  return [...idGroups, ...passphraseGroups];
}
