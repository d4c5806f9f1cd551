import { createCompanyKeyPair, importCompanyPrivateKey } from './company-keys';
import { decryptContent, encryptContent } from './content';
import { DecryptionError } from './errors';
import {
  createIncidentCredentials,
  grantIncidentPassphrase,
  openIncidentWithGrant,
  regrantIncidentPassphrase,
} from './incident';
import { createPersonKeys, importPersonKeys } from './person-keys';
import { tamperedVariants } from './test-support';

async function person() {
  const { publicKeys, secret } = await createPersonKeys();
  return importPersonKeys(secret, publicKeys);
}

async function setUp() {
  const company = await createCompanyKeyPair();
  const companyPrivateKey = await importCompanyPrivateKey(company.secret);
  const [handler, other] = await Promise.all([person(), person()]);
  const created = await createIncidentCredentials(company.public_key);
  const otherCase = await createIncidentCredentials(company.public_key);
  return { company, companyPrivateKey, handler, other, created, stored: created.payload, otherCase };
}

describe('per-case grants: the incident passphrase wrapped to one person', () => {
  it("when an admin's browser grants a case to a handler, then the handler's own key opens the case and reads its text", async () => {
    const { companyPrivateKey, handler, created, stored } = await setUp();
    const note = await encryptContent(created.incident.publicKey, 'Only for the assigned handler', { kind: 'note' });
    const [grant] = await grantIncidentPassphrase({
      ...stored,
      companyPrivateKeys: [companyPrivateKey],
      recipientPublicKeys: [handler.publicKeys.public_key],
    });
    const opened = await openIncidentWithGrant({ ...stored, grant: grant!, person: handler });
    expect(opened.publicKey).toBe(stored.credential.public_key);
    expect(await decryptContent(opened, note, { kind: 'note' })).toBe('Only for the assigned handler');
  });

  it('when a grant is handed to another person, or presented as the grant of another case, then it does not open', async () => {
    const { companyPrivateKey, handler, other, stored, otherCase } = await setUp();
    const [grant] = await grantIncidentPassphrase({
      ...stored,
      companyPrivateKeys: [companyPrivateKey],
      recipientPublicKeys: [handler.publicKeys.public_key],
    });
    await expect(openIncidentWithGrant({ ...stored, grant: grant!, person: other })).rejects.toThrow(DecryptionError);
    await expect(openIncidentWithGrant({ ...otherCase.payload, grant: grant!, person: handler })).rejects.toThrow(
      DecryptionError,
    );
    for (const tampered of tamperedVariants(grant!))
      await expect(openIncidentWithGrant({ ...stored, grant: tampered.value, person: handler })).rejects.toThrow();
  });

  it('when a grant of another case is wrapped to the same person, then the case keys refuse it (bound to the incident key)', async () => {
    const { companyPrivateKey, handler, stored, otherCase } = await setUp();
    const [foreign] = await grantIncidentPassphrase({
      ...otherCase.payload,
      companyPrivateKeys: [companyPrivateKey],
      recipientPublicKeys: [handler.publicKeys.public_key],
    });
    await expect(openIncidentWithGrant({ ...stored, grant: foreign!, person: handler })).rejects.toThrow(
      DecryptionError,
    );
  });

  it("when the server hands a company wrapping that does not open the case's sealed key, then nothing is granted", async () => {
    const { companyPrivateKey, handler, stored, otherCase } = await setUp();
    await expect(
      grantIncidentPassphrase({
        ...stored,
        company_encrypted_passphrase: otherCase.payload.company_encrypted_passphrase,
        companyPrivateKeys: [companyPrivateKey],
        recipientPublicKeys: [handler.publicKeys.public_key],
      }),
    ).rejects.toThrow(DecryptionError);
    const stranger = await importCompanyPrivateKey((await createCompanyKeyPair()).secret);
    await expect(
      grantIncidentPassphrase({
        ...stored,
        companyPrivateKeys: [stranger],
        recipientPublicKeys: [handler.publicKeys.public_key],
      }),
    ).rejects.toThrow(DecryptionError);
  });

  it("when the discloser's browser files a report for default assignees, then each key id gets a grant its owner opens", async () => {
    const company = await createCompanyKeyPair();
    const [first, second] = await Promise.all([person(), person()]);
    const created = await createIncidentCredentials(company.public_key, [
      { key_id: 'key-1', public_key: first.publicKeys.public_key },
      { key_id: 'key-2', public_key: second.publicKeys.public_key },
    ]);
    expect(created.grants.map((grant) => grant.key_id)).toEqual(['key-1', 'key-2']);
    const opened = await openIncidentWithGrant({
      ...created.payload,
      grant: created.grants[1]!.wrapped_passphrase,
      person: second,
    });
    expect(opened.publicKey).toBe(created.payload.credential.public_key);
    await expect(
      openIncidentWithGrant({ ...created.payload, grant: created.grants[0]!.wrapped_passphrase, person: second }),
    ).rejects.toThrow(DecryptionError);
    expect((await createIncidentCredentials(company.public_key)).grants).toEqual([]);
  });
});

describe('grants made with one’s own grant (a case no company key wraps)', () => {
  it('when someone who holds a grant of the case grants it on, then the recipient opens it; a grant of another case is refused', async () => {
    const { company, handler, other, otherCase } = await setUp();
    // The report as the discloser's browser made it, wrapped to the handler's key.
    const withHandler = await createIncidentCredentials(company.public_key, [
      { key_id: 'k', public_key: handler.publicKeys.public_key },
    ]);
    const stored = withHandler.payload;
    const [grant] = await regrantIncidentPassphrase({
      ...stored,
      grant: withHandler.grants[0]!.wrapped_passphrase,
      person: handler,
      recipientPublicKeys: [other.publicKeys.public_key],
    });
    const opened = await openIncidentWithGrant({ ...stored, grant: grant!, person: other });
    expect(opened.publicKey).toBe(stored.credential.public_key);
    // The grant checked against the case: handed with another case's keys, nothing is wrapped.
    await expect(
      regrantIncidentPassphrase({
        ...otherCase.payload,
        grant: withHandler.grants[0]!.wrapped_passphrase,
        person: handler,
        recipientPublicKeys: [other.publicKeys.public_key],
      }),
    ).rejects.toThrow(DecryptionError);
  });
});
