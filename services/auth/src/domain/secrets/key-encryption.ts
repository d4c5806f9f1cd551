import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key-encryption key (KEK) that the environment provides (a Kubernetes Secret or KMS in clusters, a 0600 file
 * under DATA_DIR when standalone). It wraps what is not report content (TOTP secrets; the rate limits' and fake
 * salts' keys derive from it), and reads, once per company, the passphrase of a company key from before people
 * held keys (docs/security.md, "Migration"). Nothing it opens opens a report of a migrated company. The context is
 * bound as associated data so a wrapped value cannot be moved to another row.
 */
export class KeyEncryptionKey {
  private constructor(private readonly key: Buffer) {}

  /** `base64Key` must decode to exactly 32 bytes (AES-256). */
  static fromBase64(base64Key: string): KeyEncryptionKey {
    const key = Buffer.from(base64Key, 'base64');
    if (key.length !== 32) throw new Error('KEY_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
    return new KeyEncryptionKey(key);
  }

  /** HMAC-SHA-256 under a key derived for `purpose` alone, so no other use of the KEK shares its key. */
  mac(purpose: string, data: string): Buffer {
    const key = Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `whistle/kek/${purpose}`, 32));
    return createHmac('sha256', key).update(data).digest();
  }

  wrap(secret: string, companyId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(companyId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  unwrap(wrapped: string, companyId: string): string {
    const [version, iv, data] = wrapped.split('.');
    if (version !== VERSION || !iv || !data) throw new Error('Unsupported wrapped secret format');
    const bytes = Buffer.from(data, 'base64url');
    // GCM accepts tags cut down to 4 bytes, each a prefix of the full one: a short tag must never reach it.
    if (bytes.length < TAG_BYTES) throw new Error('Wrapped secret refused: its authentication tag is too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    }).setAAD(Buffer.from(companyId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }
}
