/**
 * @jest-environment node
 */
// Node's environment: jsdom has no WebCrypto, and the point here is the real protocol.
import {
  createIncidentCredentials,
  createPersonKeys,
  decryptContent,
  encryptContent,
  importPersonKeys,
  openCompanyKeyGrant,
  personFingerprint,
} from '@whistle/crypto';
import { MemoryStorage, onboardedAdmin, profile, serveAuth } from '../../test/keyring-fixtures';
import { createStaffSession } from './staff-session';

let localStorage: MemoryStorage;
let fetchMock: jest.SpyInstance;
let posted: { url: string; body: unknown }[];
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
  localStorage = new MemoryStorage();
  posted = [];
});
afterEach(() => fetchMock.mockRestore());

describe('the keyring during a company key rotation', () => {
  it('when an admin rotates the company key, then the new pair is granted to the holders shown, the kit opens it, and cases open under either key until the re-wrapping ends', async () => {
    const admin = await onboardedAdmin();
    serveAuth(fetchMock, posted, admin);
    const session = createStaffSession(localStorage);
    await session.signIn('staff-token', admin.unlockKey);
    await session.staff();
    const me = session.keyring.person()!;
    const self = { userId: profile.uuid, publicKey: me.publicKey, signingPublicKey: me.signingPublicKey };
    const bob = await createPersonKeys();
    const mallory = await createPersonKeys();
    const bobShown = {
      userId: 'b0b00000-0000-4000-8000-000000000002',
      fingerprint: await personFingerprint(bob.publicKeys),
    };

    // A holder whose keys are not those whose fingerprint the page showed: nothing is made or posted.
    await expect(
      session.keyring.startCompanyKeyRotation([
        { ...self, fingerprint: me.fingerprint },
        {
          ...bobShown,
          publicKey: mallory.publicKeys.public_key,
          signingPublicKey: mallory.publicKeys.signing_public_key,
        },
      ]),
    ).rejects.toThrow('do not match the fingerprint shown');
    expect(posted.some((call) => call.url === '/api/account/company/keys/rotation')).toBe(false);

    const before = await createIncidentCredentials(admin.company.public_key);
    const started = await session.keyring.startCompanyKeyRotation([
      { ...self, fingerprint: me.fingerprint },
      { ...bobShown, publicKey: bob.publicKeys.public_key, signingPublicKey: bob.publicKeys.signing_public_key },
    ]);
    expect(started.keyVersion).toBe(2);
    const sent = posted.find((call) => call.url === '/api/account/company/keys/rotation')!.body as {
      key_version: number;
      public_key: string;
      grants: { user_id: string; grant: string }[];
    };
    expect(sent.key_version).toBe(1);
    expect(sent.public_key).not.toBe(admin.company.public_key);
    const bobKeys = await importPersonKeys(bob.secret, bob.publicKeys);
    await openCompanyKeyGrant(
      bobKeys,
      sent.grants.find((grant) => grant.user_id === bobShown.userId)!.grant,
      sent.public_key,
    );
    expect(started.recoveryKit.fingerprint).not.toBe(admin.own.person!.fingerprint);

    const after = await createIncidentCredentials(sent.public_key);
    for (const report of [before, after]) {
      const text = await encryptContent(report.incident.publicKey, 'either key', { kind: 'note' });
      expect(await decryptContent(await session.keyring.openCase(report.payload), text, { kind: 'note' })).toBe(
        'either key',
      );
    }
    const material = session.keyring.workerMaterial()!;
    expect(material.previousCompanyPrivateKey).toBeDefined();
    expect(material.previousCompanyPrivateKey!.extractable).toBe(false);
    expect((await session.keyring.companyKeyStatus()).rotation).toMatchObject({
      previousKeyVersion: 1,
      previousHeld: true,
    });
    expect(JSON.stringify(posted)).not.toContain(started.recoveryKit.text);
  });
});
