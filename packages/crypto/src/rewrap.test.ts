import { createCompanyKeyPair, importCompanyPrivateKey } from './company-keys';
import { decryptContent, encryptContent } from './content';
import { DecryptionError } from './errors';
import { createIncidentCredentials, openIncidentAsCompany, rewrapIncidentPassphrase } from './incident';
import { tamperedVariants } from './test-support';

async function companyKey() {
  const pair = await createCompanyKeyPair();
  return { publicKey: pair.public_key, privateKey: await importCompanyPrivateKey(pair.secret) };
}

async function setUp() {
  const [previous, next, stranger] = await Promise.all([companyKey(), companyKey(), companyKey()]);
  const created = await createIncidentCredentials(previous.publicKey);
  return { previous, next, stranger, created, stored: created.payload };
}

describe('company key rotation: an incident passphrase re-wrapped to the new company key', () => {
  it('when re-wrapped, then the new key opens the case, what was written before still reads, and the old key does not open the new wrapping', async () => {
    const { previous, next, created, stored } = await setUp();
    const written = await encryptContent(created.incident.publicKey, 'Written before the rotation', { kind: 'note' });
    const rewrapped = await rewrapIncidentPassphrase({
      ...stored,
      companyPrivateKeys: [previous.privateKey, next.privateKey],
      newCompanyPublicKey: next.publicKey,
    });
    expect(rewrapped.keyIndex).toBe(0);
    expect(rewrapped.company_encrypted_passphrase).not.toBe(stored.company_encrypted_passphrase);
    const opened = await openIncidentAsCompany({
      ...stored,
      company_encrypted_passphrase: rewrapped.company_encrypted_passphrase,
      companyPrivateKey: next.privateKey,
    });
    expect(opened.publicKey).toBe(stored.credential.public_key);
    expect(await decryptContent(opened, written, { kind: 'note' })).toBe('Written before the rotation');
    await expect(
      openIncidentAsCompany({
        ...stored,
        company_encrypted_passphrase: rewrapped.company_encrypted_passphrase,
        companyPrivateKey: previous.privateKey,
      }),
    ).rejects.toThrow(DecryptionError);
  });

  it('when a case is already wrapped to the new key (a report filed during the rotation), then it opens with that one and is wrapped to it again', async () => {
    const { previous, next } = await setUp();
    const filedDuring = (await createIncidentCredentials(next.publicKey)).payload;
    const rewrapped = await rewrapIncidentPassphrase({
      ...filedDuring,
      companyPrivateKeys: [previous.privateKey, next.privateKey],
      newCompanyPublicKey: next.publicKey,
    });
    expect(rewrapped.keyIndex).toBe(1);
    await expect(
      openIncidentAsCompany({ ...filedDuring, ...rewrapped, companyPrivateKey: next.privateKey }),
    ).resolves.toBeDefined();
  });

  it('when the wrapping is tampered with, or is one no held key opens, then nothing is re-wrapped', async () => {
    const { previous, next, stranger, stored } = await setUp();
    const keys = { companyPrivateKeys: [previous.privateKey, next.privateKey], newCompanyPublicKey: next.publicKey };
    const variants = tamperedVariants(stored.company_encrypted_passphrase);
    expect(variants.length).toBeGreaterThan(5);
    for (const tampered of variants)
      await expect(
        rewrapIncidentPassphrase({ ...stored, ...keys, company_encrypted_passphrase: tampered.value }),
      ).rejects.toThrow(DecryptionError);
    const foreign = (await createIncidentCredentials(stranger.publicKey)).payload;
    await expect(
      rewrapIncidentPassphrase({
        ...stored,
        ...keys,
        company_encrypted_passphrase: foreign.company_encrypted_passphrase,
      }),
    ).rejects.toThrow(DecryptionError);
  });

  it("when the server pairs a case with another case's passphrase, then the passphrase does not verify against the incident and is not re-wrapped", async () => {
    const { previous, next, stored } = await setUp();
    const otherCase = (await createIncidentCredentials(previous.publicKey)).payload;
    await expect(
      rewrapIncidentPassphrase({
        ...stored,
        company_encrypted_passphrase: otherCase.company_encrypted_passphrase,
        companyPrivateKeys: [previous.privateKey],
        newCompanyPublicKey: next.publicKey,
      }),
    ).rejects.toThrow(DecryptionError);
  });

  it('during a rotation, a reader holding both keys opens a case under either', async () => {
    const { previous, next, stored } = await setUp();
    await expect(
      openIncidentAsCompany({
        ...stored,
        companyPrivateKey: next.privateKey,
        previousCompanyPrivateKey: previous.privateKey,
      }),
    ).resolves.toBeDefined();
    await expect(openIncidentAsCompany({ ...stored, companyPrivateKey: next.privateKey })).rejects.toThrow(
      DecryptionError,
    );
  });
});
