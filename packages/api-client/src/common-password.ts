import {
  COMMON_PASSWORD_PREFIX_LENGTH,
  COMMON_PASSWORD_SUFFIX_LENGTH,
  commonPasswordSuffixesSchema,
} from '@whistle/contracts';
import type { ApiClient } from './client';

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether `password` is one of the most common passwords of leaked lists, decided here, k-anonymously: only the
 * first characters of its hash are sent (GET /api/account/password/common/{prefix}), never the password nor its
 * hash. Case does not help ("Password" is "password"). The check is advice, not a gate: when the list cannot be
 * reached it answers false, and an outage never stops anyone from choosing a password.
 */
export async function isCommonPassword(api: ApiClient, password: string, signal?: AbortSignal): Promise<boolean> {
  let suffix: string;
  let answer: unknown;
  try {
    // WebCrypto exists only in secure contexts (HTTPS, localhost); without it the check stands aside too.
    const hash = await sha256Hex(password.toLowerCase());
    const prefix = hash.slice(0, COMMON_PASSWORD_PREFIX_LENGTH);
    suffix = hash.slice(COMMON_PASSWORD_PREFIX_LENGTH, COMMON_PASSWORD_PREFIX_LENGTH + COMMON_PASSWORD_SUFFIX_LENGTH);
    answer = await api.request<unknown>('GET', `/api/account/password/common/${prefix}`, { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return false;
  }
  const parsed = commonPasswordSuffixesSchema.safeParse(answer);
  return parsed.success && parsed.data.suffixes.includes(suffix);
}
