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
