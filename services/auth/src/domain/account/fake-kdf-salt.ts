import type { KeyEncryptionKey } from '../secrets/key-encryption';

/**
 * The salt answered for an address without an account (or without a password): an HMAC of the normalised address
 * under a key derived from the KEK, cut to the 16 bytes of a real salt. Stable, so asking twice tells nothing, and
 * unpredictable without the KEK, so it cannot be told apart from a real one.
 */
export const fakeKdfSalt = (kek: KeyEncryptionKey, email: string): string =>
  kek.mac('fake-kdf-salt', email.trim().toLowerCase()).subarray(0, 16).toString('base64url');
