import {
  companyFingerprint,
  createCompanyKeyPair,
  grantCompanyKey,
  importCompanyPrivateKey,
  openCompanyKeyGrant,
  openCompanyKeyWithRecovery,
  sealCompanyKeyForRecovery,
} from './company-keys';
import { DecryptionError } from './errors';
import { createPersonKeys, importPersonKeys } from './person-keys';
import { createRecoveryKey } from './recovery-key';
import { tamperedVariants } from './test-support';
import { unwrapWithPrivateKey, wrapToPublicKey } from './wrap';

async function person() {
  const { publicKeys, secret } = await createPersonKeys();
  return importPersonKeys(secret, publicKeys);
}

describe('company key: granted to people, sealed for the recovery kit, never held by the server', () => {
  it('when granted to an admin, then only that admin opens it, and the key decrypts what is wrapped to the company', async () => {
    const company = await createCompanyKeyPair();
    const [admin, other] = await Promise.all([person(), person()]);
    const grant = await grantCompanyKey(company.secret, company.public_key, admin.publicKeys.public_key);
    expect(grant).toMatch(/^v2\./);
    const secret = await openCompanyKeyGrant(admin, grant, company.public_key);
    const privateKey = await importCompanyPrivateKey(secret);
    const wrapped = await wrapToPublicKey(company.public_key, Uint8Array.of(4, 2), 'incident-passphrase');
    expect(Array.from(await unwrapWithPrivateKey(privateKey, wrapped, 'incident-passphrase'))).toEqual([4, 2]);
    await expect(openCompanyKeyGrant(other, grant, company.public_key)).rejects.toThrow(DecryptionError);
  });

  it("when a grant is presented as another company's or another person's, then it does not open", async () => {
    const [company, otherCompany] = await Promise.all([createCompanyKeyPair(), createCompanyKeyPair()]);
    const admin = await person();
    const grant = await grantCompanyKey(company.secret, company.public_key, admin.publicKeys.public_key);
    await expect(openCompanyKeyGrant(admin, grant, otherCompany.public_key)).rejects.toThrow(DecryptionError);
    for (const tampered of tamperedVariants(grant)) {
      await expect(openCompanyKeyGrant(admin, tampered.value, company.public_key)).rejects.toThrow(DecryptionError);
    }
  });

  it('when the server wraps a key pair of its own to an admin, as if it were the company key, then the admin refuses it', async () => {
    const [company, servers] = await Promise.all([createCompanyKeyPair(), createCompanyKeyPair()]);
    const admin = await person();
    // Right context (the real company public key), wrong private key inside.
    const forged = await grantCompanyKey(servers.secret, company.public_key, admin.publicKeys.public_key);
    await expect(openCompanyKeyGrant(admin, forged, company.public_key)).rejects.toThrow('does not match');
  });

  it('when sealed for recovery, then the right kit opens it, another kit or company does not', async () => {
    const company = await createCompanyKeyPair();
    const [kit, otherKit] = await Promise.all([createRecoveryKey(), createRecoveryKey()]);
    const sealed = await sealCompanyKeyForRecovery(kit, company.secret, company.public_key);
    expect(sealed.split('.')).toHaveLength(4);
    const opened = await openCompanyKeyWithRecovery(kit, sealed, company.public_key);
    expect(Buffer.from(opened).equals(Buffer.from(company.secret))).toBe(true);
    await expect(openCompanyKeyWithRecovery(otherKit, sealed, company.public_key)).rejects.toThrow(DecryptionError);
    const other = await createCompanyKeyPair();
    await expect(openCompanyKeyWithRecovery(kit, sealed, other.public_key)).rejects.toThrow(DecryptionError);
    for (const tampered of tamperedVariants(sealed)) {
      await expect(openCompanyKeyWithRecovery(kit, tampered.value, company.public_key)).rejects.toThrow(
        DecryptionError,
      );
    }
  });

  it('when fingerprinted, then the company key has a grouped fingerprint of 20 symbols', async () => {
    const company = await createCompanyKeyPair();
    expect(await companyFingerprint(company.public_key)).toMatch(/^(\w{4} ){4}\w{4}$/);
  });
});
