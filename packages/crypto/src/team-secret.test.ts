import { createCompanyKeyPair, importCompanyPrivateKey } from './company-keys';
import { decryptContent, decryptNote, encryptContent, encryptNote } from './content';
import { openForDiscloser } from './discloser';
import { DecryptionError } from './errors';
import {
  createIncidentCredentials,
  grantIncidentPassphrase,
  openIncidentAsCompany,
  openIncidentAsDiscloser,
  openIncidentWithGrant,
  regrantIncidentPassphrase,
  rewrapIncidentPassphrase,
} from './incident';
import { passphraseFromTeamSecret } from './incident-key';
import { createPersonKeys, importPersonKeys } from './person-keys';
import { createLegacyIncident, tamperedVariants } from './test-support';
import { unwrapWithPrivateKey } from './wrap';

/*
 * Issue #25 item 3: private notes are encrypted to a key the discloser never holds. The company wrapping and every
 * grant of a new case carry the case team secret T; the discloser gets P = HKDF(T) only; notes use K = HKDF(T).
 */

async function companyKey() {
  const pair = await createCompanyKeyPair();
  return { publicKey: pair.public_key, privateKey: await importCompanyPrivateKey(pair.secret) };
}

async function person() {
  const { publicKeys, secret } = await createPersonKeys();
  return importPersonKeys(secret, publicKeys);
}

/** The stored keys with the sealed private key's version prefix changed to `to`, as a lying server could. */
function relabel<T extends { credential: { public_key: string; aes_encrypted_private_key: string } }>(
  stored: T,
  to: string,
): T {
  const sealed = stored.credential.aes_encrypted_private_key;
  return { ...stored, credential: { ...stored.credential, aes_encrypted_private_key: to + sealed.slice(2) } };
}

async function setUp() {
  const company = await companyKey();
  const created = await createIncidentCredentials(company.publicKey);
  const stored = created.payload;
  const asCompany = () => openIncidentAsCompany({ ...stored, companyPrivateKey: company.privateKey });
  const asDiscloser = () => openIncidentAsDiscloser({ ...stored, discloserPassphrase: created.discloserPassphrase });
  return { company, created, stored, asCompany, asDiscloser };
}

describe('case team secret: what staff hold and the discloser does not', () => {
  it('when a case is made, then its company wrapping carries T (not the discloser’s P = HKDF(T)), its sealed key is v2, and staff derive the notes key', async () => {
    const { company, created, stored, asCompany } = await setUp();
    expect(stored.credential.aes_encrypted_private_key).toMatch(/^v2\./);
    const teamSecret = await unwrapWithPrivateKey(
      company.privateKey,
      stored.company_encrypted_passphrase,
      'incident-passphrase',
    );
    const discloserHeld = await openForDiscloser(created.discloserPassphrase, stored.discloser_encrypted_passphrase);
    expect(Buffer.from(teamSecret).equals(Buffer.from(discloserHeld))).toBe(false);
    const derived = await passphraseFromTeamSecret(teamSecret, stored.credential.public_key);
    expect(Buffer.from(derived).equals(Buffer.from(discloserHeld))).toBe(true);
    const staff = await asCompany();
    expect(staff.notesKey).toBeDefined();
    const note = await encryptNote(staff, 'The manager is a suspect');
    expect(note).toMatch(/^v3\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(await decryptNote(await asCompany(), note)).toBe('The manager is a suspect');
  });

  it('when the discloser opens their case, then their handle has no notes key and a note does not open with it', async () => {
    const { created, asCompany, asDiscloser } = await setUp();
    const note = await encryptNote(await asCompany(), 'The manager is a suspect');
    const motivation = await encryptNote(await asCompany(), 'Proven by the ledger', 'motivation');
    for (const discloser of [await asDiscloser(), created.incident]) {
      expect(discloser.notesKey).toBeUndefined();
      await expect(decryptNote(discloser, note)).rejects.toThrow(DecryptionError);
      await expect(decryptNote(discloser, motivation, 'motivation')).rejects.toThrow(DecryptionError);
    }
  });

  it('when the server relabels the sealed key v2 as v1, then no staff path opens the case; the discloser still does', async () => {
    const { company, created, stored, asDiscloser } = await setUp();
    const handler = await person();
    const [grant] = await grantIncidentPassphrase({
      ...stored,
      companyPrivateKeys: [company.privateKey],
      recipientPublicKeys: [handler.publicKeys.public_key],
    });
    const relabelled = relabel(stored, 'v1');
    await expect(openIncidentAsCompany({ ...relabelled, companyPrivateKey: company.privateKey })).rejects.toThrow(
      DecryptionError,
    );
    await expect(openIncidentWithGrant({ ...relabelled, grant: grant!, person: handler })).rejects.toThrow(
      DecryptionError,
    );
    const recipients = {
      companyPrivateKeys: [company.privateKey],
      recipientPublicKeys: [handler.publicKeys.public_key],
    };
    await expect(grantIncidentPassphrase({ ...relabelled, ...recipients })).rejects.toThrow(DecryptionError);
    await expect(
      rewrapIncidentPassphrase({ ...relabelled, ...recipients, newCompanyPublicKey: company.publicKey }),
    ).rejects.toThrow(DecryptionError);
    // The discloser holds P whatever the label: they open it, still without a notes key.
    const opened = await openIncidentAsDiscloser({ ...relabelled, discloserPassphrase: created.discloserPassphrase });
    expect(opened.notesKey).toBeUndefined();
    expect((await asDiscloser()).publicKey).toBe(stored.credential.public_key);
  });

  it('when the server relabels an old case’s v1 sealed key as v2, then staff cannot open it', async () => {
    const company = await companyKey();
    const legacy = await createLegacyIncident(company.publicKey);
    const relabelled = relabel(legacy.payload, 'v2');
    await expect(openIncidentAsCompany({ ...relabelled, companyPrivateKey: company.privateKey })).rejects.toThrow(
      DecryptionError,
    );
    await expect(
      grantIncidentPassphrase({
        ...relabelled,
        companyPrivateKeys: [company.privateKey],
        recipientPublicKeys: [(await person()).publicKeys.public_key],
      }),
    ).rejects.toThrow(DecryptionError);
  });

  it('when an admin grants a new case and the grant holder grants it on, then each recipient reads the notes', async () => {
    const { company, stored, asCompany } = await setUp();
    const [handler, reviewer] = await Promise.all([person(), person()]);
    const note = await encryptNote(await asCompany(), 'Check the ledger first');
    const [grant] = await grantIncidentPassphrase({
      ...stored,
      companyPrivateKeys: [company.privateKey],
      recipientPublicKeys: [handler.publicKeys.public_key],
    });
    const [regrant] = await regrantIncidentPassphrase({
      ...stored,
      grant: grant!,
      person: handler,
      recipientPublicKeys: [reviewer.publicKeys.public_key],
    });
    const byHandler = await openIncidentWithGrant({ ...stored, grant: grant!, person: handler });
    const byReviewer = await openIncidentWithGrant({ ...stored, grant: regrant!, person: reviewer });
    expect(await decryptNote(byHandler, note)).toBe('Check the ledger first');
    expect(await decryptNote(byReviewer, await encryptNote(byHandler, 'Seen'))).toBe('Seen');
  });

  it('when the report is made with recipients (a list, or a staff intake), then their grants carry T and open the notes', async () => {
    const company = await companyKey();
    const handler = await person();
    const created = await createIncidentCredentials(company.publicKey, [
      { key_id: 'k1', public_key: handler.publicKeys.public_key },
    ]);
    const opened = await openIncidentWithGrant({
      ...created.payload,
      grant: created.grants[0]!.wrapped_passphrase,
      person: handler,
    });
    const byCompany = await openIncidentAsCompany({ ...created.payload, companyPrivateKey: company.privateKey });
    expect(await decryptNote(byCompany, await encryptNote(opened, 'From the intake'))).toBe('From the intake');
  });

  it('when the company key rotates, then the case is re-wrapped with T and its notes still read', async () => {
    const { company, stored, asCompany } = await setUp();
    const next = await companyKey();
    const note = await encryptNote(await asCompany(), 'Written before the rotation');
    const { company_encrypted_passphrase } = await rewrapIncidentPassphrase({
      ...stored,
      companyPrivateKeys: [company.privateKey],
      newCompanyPublicKey: next.publicKey,
    });
    const opened = await openIncidentAsCompany({
      ...stored,
      company_encrypted_passphrase,
      companyPrivateKey: next.privateKey,
    });
    expect(await decryptNote(opened, note)).toBe('Written before the rotation');
  });
});

describe('notes under the notes key (v3): bound to their place', () => {
  it('when a note is moved into a message, a field, a motivation or another case, or altered, then it does not open', async () => {
    const { company, asCompany } = await setUp();
    const staff = await asCompany();
    const note = await encryptNote(staff, 'The manager is a suspect');
    await expect(decryptContent(staff, note, { kind: 'message', from: 'staff' })).rejects.toThrow();
    await expect(decryptContent(staff, note, { kind: 'field', name: 'description' })).rejects.toThrow();
    await expect(decryptNote(staff, note, 'motivation')).rejects.toThrow(DecryptionError);
    const other = await createIncidentCredentials(company.publicKey);
    const otherStaff = await openIncidentAsCompany({ ...other.payload, companyPrivateKey: company.privateKey });
    await expect(decryptNote(otherStaff, note)).rejects.toThrow(DecryptionError);
    for (const tampered of tamperedVariants(note)) await expect(decryptNote(staff, tampered.value)).rejects.toThrow();
  });

  it('when a text encrypted to the incident public key (which the server knows) is shown as a note of a new case, then it is refused', async () => {
    const { stored, asCompany } = await setUp();
    const forged = await encryptContent(stored.credential.public_key, 'Close it as spam', { kind: 'note' });
    await expect(decryptNote(await asCompany(), forged)).rejects.toThrow(DecryptionError);
  });
});

describe('cases made before team secrets', () => {
  it('when an old (v1-sealed) case is opened by the company, a grant, a regrant or its discloser, then all open it without a notes key and its notes read', async () => {
    const company = await companyKey();
    const [handler, reviewer] = await Promise.all([person(), person()]);
    const legacy = await createLegacyIncident(company.publicKey);
    const stored = legacy.payload;
    const byCompany = await openIncidentAsCompany({ ...stored, companyPrivateKey: company.privateKey });
    expect(byCompany.notesKey).toBeUndefined();
    const written = await encryptContent(stored.credential.public_key, 'Written long ago', { kind: 'note' });
    const note = await encryptNote(byCompany, 'Written today');
    expect(note).toMatch(/^v2\./);
    const [grant] = await grantIncidentPassphrase({
      ...stored,
      companyPrivateKeys: [company.privateKey],
      recipientPublicKeys: [handler.publicKeys.public_key],
    });
    const byHandler = await openIncidentWithGrant({ ...stored, grant: grant!, person: handler });
    const [regrant] = await regrantIncidentPassphrase({
      ...stored,
      grant: grant!,
      person: handler,
      recipientPublicKeys: [reviewer.publicKeys.public_key],
    });
    const byReviewer = await openIncidentWithGrant({ ...stored, grant: regrant!, person: reviewer });
    const byDiscloser = await openIncidentAsDiscloser({ ...stored, discloserPassphrase: legacy.discloserPassphrase });
    for (const handle of [byCompany, byHandler, byReviewer]) {
      expect(await decryptNote(handle, written)).toBe('Written long ago');
      expect(await decryptNote(handle, note)).toBe('Written today');
    }
    // The limit, as documented: an old case's discloser can read its notes.
    expect(await decryptNote(byDiscloser, note)).toBe('Written today');
  });

  it('when an old case is re-wrapped in a rotation, then it keeps opening with its passphrase', async () => {
    const company = await companyKey();
    const next = await companyKey();
    const legacy = await createLegacyIncident(company.publicKey);
    const { company_encrypted_passphrase } = await rewrapIncidentPassphrase({
      ...legacy.payload,
      companyPrivateKeys: [company.privateKey],
      newCompanyPublicKey: next.publicKey,
    });
    const opened = await openIncidentAsCompany({
      ...legacy.payload,
      company_encrypted_passphrase,
      companyPrivateKey: next.privateKey,
    });
    expect(opened.publicKey).toBe(legacy.payload.credential.public_key);
  });
});
