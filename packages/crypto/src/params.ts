/**
 * Every algorithm choice and size of the protocol, in one table (see README.md). A change here is a
 * new format version: bump `version`, keep the reader of the old one.
 */
export const PARAMS = {
  /** Prefix of every string this package produces. */
  version: 'v1',
  /** Byte 0 of an encrypted file (the binary counterpart of `version`). */
  fileFormatVersion: 1,
  ecdh: { name: 'ECDH', namedCurve: 'P-256', publicKeyBytes: 65, sharedSecretBits: 256 },
  aes: { name: 'AES-GCM', keyBits: 256, ivBytes: 12, tagBytes: 16 },
  hkdf: { name: 'HKDF', hash: 'SHA-256', saltBytes: 16 },
  /** Stored fingerprint of the discloser auth token (a 256-bit value: no salt or stretching needed). */
  digest: 'SHA-256',
  /** One HKDF `info` per key purpose, so no derived key can stand in for another. */
  info: {
    companyPrivateKey: 'whistle/v1/company-private-key',
    incidentPrivateKey: 'whistle/v1/incident-private-key',
    discloserPassphraseKey: 'whistle/v1/discloser-passphrase-key',
    discloserAuthToken: 'whistle/v1/discloser-auth-token',
    wrap: 'whistle/v1/wrap/',
  },
  /** Company passphrase, incident passphrase and file keys: 256 random bits each. */
  secretBytes: 32,
  authTokenBytes: 32,
  /**
   * Machine-generated, so HKDF (not PBKDF2/Argon2) is right: 28 symbols × 5 bits = 140 bits.
   * Crockford base32 in lower case: no i, l, o, u, so it survives being read aloud or written down.
   */
  discloserPassphrase: { alphabet: '0123456789abcdefghjkmnpqrstvwxyz', length: 28, groupSize: 4 },
  /** Server-generated retrieval ids as the secret code accepts them. */
  retrievalIdPattern: /^[A-Za-z0-9_-]{1,128}$/,
} as const;
