/**
 * @jest-environment node
 */
// Node's environment: jsdom has no WebCrypto, and the point here is the real protocol.
import {
  createIncidentCredentials,
  createPersonKeys,
  importPersonKeys,
  openIncidentWithGrant,
  personFingerprint,
} from '@whistle/crypto';
import { MemoryStorage, onboardedAdmin, serveAuth } from '../../test/keyring-fixtures';
import { createStaffSession } from './staff-session';

let localStorage: MemoryStorage;
let fetchMock: jest.SpyInstance;
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
  localStorage = new MemoryStorage();
});
afterEach(() => fetchMock.mockRestore());

/**
 * A report whose discloser kept another admin out (docs/security.md, "Keeping people out"): no company wrapping, its
 * passphrase wrapped to this admin's own key. Their keyring opens it with that grant alone, and grants it on to a
 * new assignee with it; without the grant, the company key opens nothing of it.
 */
it('when a case has no company wrapping, then the keyring opens it and grants it on with the person’s own grant only', async () => {
  const admin = await onboardedAdmin();
  serveAuth(fetchMock, [], admin);
  const session = createStaffSession(localStorage);
  await session.signIn('staff-token', admin.unlockKey);
  await session.staff();
  const me = session.keyring.person()!;
  const report = await createIncidentCredentials(admin.company.public_key, [
    { key_id: 'own', public_key: me.publicKey },
  ]);
  const keys = {
    ...report.payload,
    company_encrypted_passphrase: null,
    my_grant: { key_id: 'own', fingerprint: me.fingerprint, wrapped_passphrase: report.grants[0]!.wrapped_passphrase },
  };
  expect((await session.keyring.openCase(keys)).publicKey).toBe(report.payload.credential.public_key);

  const bob = await createPersonKeys();
  const [granted] = await session.keyring.grantCase(keys, [
    {
      userId: 'b0b00000-0000-4000-8000-000000000002',
      publicKey: bob.publicKeys.public_key,
      signingPublicKey: bob.publicKeys.signing_public_key,
      fingerprint: await personFingerprint(bob.publicKeys),
    },
  ]);
  const opened = await openIncidentWithGrant({
    ...report.payload,
    grant: granted!.wrapped_passphrase,
    person: await importPersonKeys(bob.secret, bob.publicKeys),
  });
  expect(opened.publicKey).toBe(report.payload.credential.public_key);

  const withoutGrant = { ...keys, my_grant: null };
  await expect(session.keyring.openCase(withoutGrant)).rejects.toMatchObject({ name: 'NoCaseAccessError' });
  await expect(session.keyring.grantCase(withoutGrant, [])).rejects.toMatchObject({ name: 'NoCaseAccessError' });
});
