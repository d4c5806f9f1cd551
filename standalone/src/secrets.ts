import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The secrets the services take from a Kubernetes Secret in a cluster. */
export interface PlatformSecrets {
  /** auth: wraps company passphrases (32 bytes, base64). */
  KEY_ENCRYPTION_KEY: string;
  /** auth signs staff access tokens (EC P-256, PKCS#8 PEM); every service verifies with TOKEN_PUBLIC_KEY. */
  TOKEN_SIGNING_KEY: string;
  TOKEN_PUBLIC_KEY: string;
  /** incident signs discloser session tokens; file verifies them. */
  DISCLOSER_TOKEN_PRIVATE_KEY: string;
  DISCLOSER_TOKEN_PUBLIC_KEY: string;
}

function ecKeyPair(): [privateKeyPem: string, publicKeyPem: string] {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return [
    privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  ];
}

/** Secrets made together (a key pair) are made, kept and read back together. */
const secretGroups: ReadonlyArray<{ names: readonly (keyof PlatformSecrets)[]; create: () => string[] }> = [
  { names: ['KEY_ENCRYPTION_KEY'], create: () => [randomBytes(32).toString('base64')] },
  { names: ['TOKEN_SIGNING_KEY', 'TOKEN_PUBLIC_KEY'], create: ecKeyPair },
  { names: ['DISCLOSER_TOKEN_PRIVATE_KEY', 'DISCLOSER_TOKEN_PUBLIC_KEY'], create: ecKeyPair },
];

async function readSecret(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Standalone only: each secret comes from the environment when set (a whole group must then be set),
 * else from `${dataDir}/secrets/<NAME>` (0600), made on first start. They sit beside the database, so a
 * copy of the whole data folder can unlock company keys; clusters take them from a Secret/KMS instead
 * (docs/security.md).
 */
export async function loadOrCreateSecrets(
  dataDir: string,
  env: Partial<Record<keyof PlatformSecrets, string>>,
): Promise<PlatformSecrets> {
  const folder = path.join(dataDir, 'secrets');
  const secrets: Partial<PlatformSecrets> = {};
  for (const { names, create } of secretGroups) {
    if (names.every((name) => env[name])) {
      for (const name of names) secrets[name] = env[name];
      continue;
    }
    const stored = await Promise.all(names.map((name) => readSecret(path.join(folder, name))));
    if (stored.every((value) => value !== undefined)) {
      names.forEach((name, index) => (secrets[name] = stored[index]!.trim()));
      continue;
    }
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const values = create();
    for (const [index, name] of names.entries()) {
      const file = path.join(folder, name);
      await writeFile(file, `${values[index]}\n`, { mode: 0o600 });
      await chmod(file, 0o600);
      secrets[name] = values[index];
    }
  }
  return secrets as PlatformSecrets;
}
