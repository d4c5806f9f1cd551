import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Standalone only: the key-encryption key lives in `${dataDir}/secrets/key-encryption-key` (0600),
 * made on first start. It sits beside the database, so a copy of the whole data folder can unlock
 * company keys; clusters take it from a Secret/KMS instead (docs/security.md).
 */
export async function loadOrCreateKeyEncryptionKey(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'secrets', 'key-encryption-key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('base64');
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return key;
}
