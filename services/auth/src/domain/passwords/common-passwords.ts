import { createHash } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { COMMON_PASSWORD_PREFIX_LENGTH, COMMON_PASSWORD_SUFFIX_LENGTH } from '@whistle/contracts';

/**
 * The most common passwords of leaked password lists (zxcvbn-ts's `passwords-common`, about 49,000 of them, most
 * common first), indexed by hash prefix for the k-anonymous check (contracts' common-password.ts). Built once, at
 * the first question: about 49,000 SHA-256 of short strings.
 */
let index: Map<string, readonly string[]> | undefined;

function buildIndex(): Map<string, readonly string[]> {
  const buckets = new Map<string, string[]>();
  for (const password of dictionary['passwords-common']) {
    const hash = createHash('sha256').update(password.toLowerCase(), 'utf8').digest('hex');
    const prefix = hash.slice(0, COMMON_PASSWORD_PREFIX_LENGTH);
    const suffix = hash.slice(
      COMMON_PASSWORD_PREFIX_LENGTH,
      COMMON_PASSWORD_PREFIX_LENGTH + COMMON_PASSWORD_SUFFIX_LENGTH,
    );
    const bucket = buckets.get(prefix) ?? [];
    bucket.push(suffix);
    buckets.set(prefix, bucket);
  }
  // Sorted: the answer says nothing of how common each listed password is.
  for (const bucket of buckets.values()) bucket.sort();
  return buckets;
}

/** The hash suffixes of the listed passwords whose hash starts with `prefix` (already validated). */
export function commonPasswordSuffixes(prefix: string): readonly string[] {
  index ??= buildIndex();
  return index.get(prefix) ?? [];
}
