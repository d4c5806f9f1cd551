import { createHash } from 'node:crypto';
import { encryptFile } from './content';
import { createIncidentCredentials } from './incident';
import { createPersonKeys, importPersonKeys } from './person-keys';
import { fileContentDigest, staffFileCiphertexts, type SignedFileParts } from './staff-files';
import { signStaffContent, verifyStaffContent, type StaffSignature, type TeamKey } from './team-keys';

const SIGNER_KEY_ID = '22222222-2222-4222-8222-222222222222';

describe('signed staff files: the signature covers the name, the key and the ciphertext’s digest', () => {
  let incidentKey: string;
  let team: Map<string, TeamKey>;
  let sign: (file: SignedFileParts) => Promise<StaffSignature>;

  beforeAll(async () => {
    const { publicKeys, secret } = await createPersonKeys();
    const person = await importPersonKeys(secret, publicKeys);
    team = new Map([
      [SIGNER_KEY_ID, { key_id: SIGNER_KEY_ID, signing_public_key: publicKeys.signing_public_key, role: 'HANDLER' }],
    ]);
    incidentKey = (await createIncidentCredentials((await createPersonKeys()).publicKeys.public_key)).incident
      .publicKey;
    sign = async (file) => ({
      ...(await signStaffContent(person, {
        incidentPublicKey: incidentKey,
        kind: 'file',
        ciphertexts: staffFileCiphertexts(file),
      })),
      signer_key_id: SIGNER_KEY_ID,
    });
  });

  async function stagedFile(text: string): Promise<SignedFileParts> {
    const encrypted = await encryptFile(incidentKey, new TextEncoder().encode(text), { fileName: `${text}.txt` });
    return {
      encrypted_file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      content_digest: await fileContentDigest(encrypted.ciphertext),
    };
  }

  const verifies = (file: SignedFileParts, signature: StaffSignature, kind: 'file' | 'message' = 'file') =>
    verifyStaffContent(team, {
      incidentPublicKey: incidentKey,
      kind,
      ciphertexts: staffFileCiphertexts(file),
      signature,
    });

  it('when the digest is taken, then it is the SHA-256 of the bytes in base64url, as the file service takes it', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253]);
    expect(await fileContentDigest(bytes)).toBe(createHash('sha256').update(bytes).digest('base64url'));
  });

  it('when a member signed the file, then it verifies', async () => {
    const file = await stagedFile('invoice');
    await expect(verifies(file, await sign(file))).resolves.toBe(true);
  });

  it('when the signature is moved to another file’s name, key or content, or read as a message, then it fails', async () => {
    const file = await stagedFile('invoice');
    const other = await stagedFile('form');
    const signature = await sign(file);
    await expect(verifies({ ...file, encrypted_file_name: other.encrypted_file_name }, signature)).resolves.toBe(false);
    await expect(verifies({ ...file, encrypted_key: other.encrypted_key }, signature)).resolves.toBe(false);
    await expect(verifies({ ...file, content_digest: other.content_digest }, signature)).resolves.toBe(false);
    await expect(verifies(other, signature)).resolves.toBe(false);
    await expect(verifies(file, signature, 'message')).resolves.toBe(false);
  });
});
