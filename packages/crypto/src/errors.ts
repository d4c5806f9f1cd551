/** Input is not something this package produced: wrong shape, unknown version, bad encoding. */
export class CryptoFormatError extends Error {
  override name = 'CryptoFormatError';
}

/**
 * Authentication failed: wrong key or passphrase, or the ciphertext was altered. Deliberately says
 * nothing more, so a caller cannot tell which part was wrong.
 */
export class DecryptionError extends Error {
  override name = 'DecryptionError';

  constructor(message = 'Decryption failed: wrong key or altered data') {
    super(message);
  }
}
