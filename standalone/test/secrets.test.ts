import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadOrCreateSecrets } from '../src/secrets';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'whistle-secrets-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

test('when the platform starts the first time, then each secret is made once, kept 0600 and read back the same', async () => {
  const first = await loadOrCreateSecrets(dataDir, {});
  expect(Buffer.from(first.KEY_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
  // Each pair really is a pair: the public key is derived from the private one.
  expect(createPublicKey(createPrivateKey(first.TOKEN_SIGNING_KEY)).export({ type: 'spki', format: 'pem' })).toBe(
    first.TOKEN_PUBLIC_KEY.trim() + '\n',
  );
  expect(
    createPublicKey(createPrivateKey(first.DISCLOSER_TOKEN_PRIVATE_KEY)).export({ type: 'spki', format: 'pem' }),
  ).toBe(first.DISCLOSER_TOKEN_PUBLIC_KEY.trim() + '\n');
  for (const name of Object.keys(first)) {
    expect((await stat(path.join(dataDir, 'secrets', name))).mode & 0o777).toBe(0o600);
  }
  expect(await loadOrCreateSecrets(dataDir, {})).toEqual(
    Object.fromEntries(Object.entries(first).map(([name, value]) => [name, value.trim()])),
  );
});

test('when the environment gives a whole group, then it wins and nothing of that group is written', async () => {
  const secrets = await loadOrCreateSecrets(dataDir, { KEY_ENCRYPTION_KEY: 'from-the-secret-store' });
  expect(secrets.KEY_ENCRYPTION_KEY).toBe('from-the-secret-store');
  await expect(readFile(path.join(dataDir, 'secrets', 'KEY_ENCRYPTION_KEY'))).rejects.toMatchObject({ code: 'ENOENT' });
});

test('when only half of a key pair is in the environment, then the pair comes from the data folder, never a mismatched mix', async () => {
  const stored = await loadOrCreateSecrets(dataDir, {});
  const secrets = await loadOrCreateSecrets(dataDir, { TOKEN_PUBLIC_KEY: 'a stray public key' });
  expect(secrets.TOKEN_PUBLIC_KEY).toBe(stored.TOKEN_PUBLIC_KEY.trim());
});
