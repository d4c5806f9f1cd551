/**
 * Every algorithm choice and size of the protocol, in one table (see README.md). A change here is a
 * new format version: bump `version`, keep the reader of the old one.
 */
export const PARAMS = {
  /** Prefix of every string this package produces. */
  version: 'v1',
  /**
   * Byte 0 of an encrypted file (the binary counterpart of `version`). 2: the plaintext is the file's length
   * (4 bytes, big-endian), the file and zeros up to its Padmé size, so the stored size tells little; 1 (no
   * padding) is still read.
   */
  fileFormatVersion: 2,
  /** The padded file's length field. */
  fileLengthBytes: 4,
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
    submissionFingerprint: 'whistle/v1/submission-fingerprint',
  },
  /**
   * Proof of submission (submission-fingerprint.ts): SHA-256 of the report's ciphertexts, first 160 bits as 32
   * Crockford base32 symbols in groups of 4. 160 bits, not the 100 of a key fingerprint: the report's own author
   * could otherwise search for two reports with one fingerprint (2^50 tries) and later show the other.
   */
  submissionFingerprint: { symbols: 32, groupSize: 4 },
  /**
   * The case team secret (docs/security.md, "The case team secret"): what the company wrapping and each per-case
   * grant of a new case carry. The incident passphrase and the notes key are HKDF of it (no salt: it is 256 random
   * bits), each with its own info and the incident public key, so neither stands in for the other or for another
   * case; the discloser gets the passphrase only, which does not give the secret back.
   */
  teamSecret: {
    /** Prefix of a sealed incident private key whose passphrase comes from a team secret (`v1.`: it is the secret). */
    sealedKeyVersion: 'v2',
    /** Prefix of a note or motivation sealed with the notes key: `v3.<iv>.<ciphertext>`. */
    noteVersion: 'v3',
    info: {
      incidentPassphrase: 'whistle/v2/team-secret/incident-passphrase',
      notesKey: 'whistle/v2/team-secret/notes-key',
    },
  },
  /** Company passphrase, incident passphrase, case team secret and file keys: 256 random bits each. */
  secretBytes: 32,
  authTokenBytes: 32,
  /**
   * Machine-generated, so HKDF (not PBKDF2/Argon2) is right: 28 symbols × 5 bits = 140 bits.
   * Crockford base32 in lower case: no i, l, o, u, so it survives being read aloud or written down.
   */
  discloserPassphrase: { alphabet: '0123456789abcdefghjkmnpqrstvwxyz', length: 28, groupSize: 4 },
  /** Server-generated retrieval ids as the secret code accepts them. */
  retrievalIdPattern: /^[A-Za-z0-9_-]{1,128}$/,
  /**
   * Keys held by people (README, "Keys held by people"). v2 values carry associated data that names
   * what they are and whose they are, so none can be moved to another place and still open.
   */
  v2: {
    version: 'v2',
    /**
     * Argon2id for a human-chosen password or unlock passphrase, in the browser (WebAssembly), one row per `kdf`
     * name. A change is a new name: accounts keep the one their salt was made with (the salt answer names it), so
     * every row stays derivable. At least 64 MiB and 2 passes (the floor), measured in docs/performance.md
     * ("Staff sign-in"). v1 (3 passes) took 1.05 s at 4× CPU, over the sign-in budget: v2 has 2; a v1 password
     * account moves to v2 in the background of its next sign-in (docs/security.md, "Migration").
     */
    kdfs: {
      'argon2id-v1': { memoryKiB: 65536, iterations: 3, parallelism: 1, hashBytes: 32, saltBytes: 16 },
      'argon2id-v2': { memoryKiB: 65536, iterations: 2, parallelism: 1, hashBytes: 32, saltBytes: 16 },
    },
    /** The `kdf` every new salt is made for (new accounts, password changes and resets, unlock passphrases). */
    kdf: 'argon2id-v2',
    /** The authentication secret sent as the spec's `password`: `v2.` and 32 bytes of base64url. */
    authSecretPattern: /^v2\.[A-Za-z0-9_-]{43}$/,
    ecdsa: { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
    /** Fingerprints: SHA-256 of the key, first 100 bits as 20 Crockford base32 symbols in groups of 4. */
    fingerprint: { symbols: 20, groupSize: 4 },
    /** Recovery key: 256 random bits plus a 16-bit checksum, typed back as grouped Crockford base32. */
    recoveryKey: { bytes: 32, checksumBytes: 2, groupSize: 5 },
    info: {
      staffAuthSecret: 'whistle/v2/staff/auth-secret',
      staffUnlockKey: 'whistle/v2/staff/unlock-key',
      passkeyUnlockKey: 'whistle/v2/staff/passkey-unlock-key',
      personKeys: 'whistle/v2/person-keys',
      recovery: 'whistle/v2/recovery/company-private-key',
      fingerprint: 'whistle/v2/fingerprint',
      wrap: 'whistle/v2/wrap/',
      discloserTeamKeys: 'whistle/v2/discloser-team-keys',
      staffSignature: 'whistle/v2/staff-signature',
      keyEndorsement: 'whistle/v2/key-endorsement',
      caseKeyPins: 'whistle/v2/staff/case-key-pins',
    },
  },
} as const;
