import { z } from '../zod';

/**
 * The common-password check, k-anonymous (GET /api/account/password/common/{prefix}): the browser hashes the
 * candidate (SHA-256 of its lower-case form, hex), sends only the first COMMON_PASSWORD_PREFIX_LENGTH characters,
 * and auth answers the next COMMON_PASSWORD_SUFFIX_LENGTH characters of every listed password's hash with that
 * prefix; the browser decides. The server never sees the password nor its hash: 8 bits of it, shared with about
 * 190 listed passwords.
 */
export const COMMON_PASSWORD_PREFIX_LENGTH = 2;
export const COMMON_PASSWORD_SUFFIX_LENGTH = 16;

export const commonPasswordPrefixSchema = z
  .string()
  .regex(new RegExp(`^[0-9a-f]{${COMMON_PASSWORD_PREFIX_LENGTH}}$`), 'A hash prefix of lower-case hex');

export const commonPasswordSuffixesSchema = z.object({ suffixes: z.array(z.string()) });
export type CommonPasswordSuffixes = z.infer<typeof commonPasswordSuffixesSchema>;
