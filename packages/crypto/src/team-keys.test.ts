import { encryptContent } from './content';
import { DecryptionError } from './errors';
import { createIncidentCredentials, openIncidentAsDiscloser, openPinnedTeamKeys } from './incident';
import { createPersonKeys, importPersonKeys, type PersonKeys } from './person-keys';
import {
  endorseTeamKey,
  resolveTeamKeys,
  signStaffContent,
  verifyKeyEndorsement,
  verifyStaffContent,
  type KeyEndorsement,
  type TeamKey,
} from './team-keys';
import { tamperedVariants } from './test-support';

const COMPANY = '00000000-0000-4000-8000-000000000001';

async function member(keyId: string, role: TeamKey['role']): Promise<{ person: PersonKeys; key: TeamKey }> {
  const { publicKeys, secret } = await createPersonKeys();
  const person = await importPersonKeys(secret, publicKeys);
  return { person, key: { key_id: keyId, signing_public_key: publicKeys.signing_public_key, role } };
}

const endorse = (by: { person: PersonKeys; key: TeamKey }, subject: TeamKey, companyId = COMPANY) =>
  endorseTeamKey(by.person, { ...subject, company_id: companyId, endorser_key_id: by.key.key_id });

describe('signed staff content: the discloser trusts what a pinned team key signed', () => {
  let handler: { person: PersonKeys; key: TeamKey };
  let incidentKey: string;
  let otherIncidentKey: string;

  beforeAll(async () => {
    handler = await member('11111111-1111-4111-8111-111111111111', 'HANDLER');
    incidentKey = (await createIncidentCredentials(await companyKey())).incident.publicKey;
    otherIncidentKey = (await createIncidentCredentials(await companyKey())).incident.publicKey;
  });

  const team = () => new Map([[handler.key.key_id, handler.key]]);

  async function signedMessage(text = 'We are looking into it.') {
    const ciphertext = await encryptContent(incidentKey, text, { kind: 'message', from: 'staff' });
    const parts = await signStaffContent(handler.person, {
      incidentPublicKey: incidentKey,
      kind: 'message',
      ciphertexts: [ciphertext],
    });
    return { ciphertext, signature: { ...parts, signer_key_id: handler.key.key_id } };
  }

  it('when a pinned member signed the message, then it verifies', async () => {
    const { ciphertext, signature } = await signedMessage();
    expect(signature.signature).toMatch(/^v2\.[\w-]{86}$/);
    await expect(
      verifyStaffContent(team(), {
        incidentPublicKey: incidentKey,
        kind: 'message',
        ciphertexts: [ciphertext],
        signature,
      }),
    ).resolves.toBe(true);
  });

  it('when unsigned, or signed by a key outside the list, then it does not verify', async () => {
    const { ciphertext } = await signedMessage();
    const base = { incidentPublicKey: incidentKey, kind: 'message' as const, ciphertexts: [ciphertext] };
    await expect(verifyStaffContent(team(), { ...base, signature: null })).resolves.toBe(false);
    const stranger = await member('22222222-2222-4222-8222-222222222222', 'HANDLER');
    const parts = await signStaffContent(stranger.person, base);
    // Named as the pinned handler's, or as the stranger's own (not pinned): neither verifies.
    await expect(
      verifyStaffContent(team(), { ...base, signature: { ...parts, signer_key_id: handler.key.key_id } }),
    ).resolves.toBe(false);
    await expect(
      verifyStaffContent(team(), { ...base, signature: { ...parts, signer_key_id: stranger.key.key_id } }),
    ).resolves.toBe(false);
  });

  it('when the ciphertext or the signature is altered, then it does not verify', async () => {
    const { ciphertext, signature } = await signedMessage();
    const base = { incidentPublicKey: incidentKey, kind: 'message' as const };
    for (const tampered of tamperedVariants(ciphertext))
      await expect(verifyStaffContent(team(), { ...base, ciphertexts: [tampered.value], signature })).resolves.toBe(
        false,
      );
    for (const tampered of tamperedVariants(signature.signature))
      await expect(
        verifyStaffContent(team(), {
          ...base,
          ciphertexts: [ciphertext],
          signature: { ...signature, signature: tampered.value },
        }),
      ).resolves.toBe(false);
    const otherNonce = { ...signature, nonce: (await signedMessage()).signature.nonce };
    await expect(
      verifyStaffContent(team(), { ...base, ciphertexts: [ciphertext], signature: otherNonce }),
    ).resolves.toBe(false);
    await expect(
      verifyStaffContent(team(), {
        ...base,
        ciphertexts: [ciphertext],
        signature: { ...signature, signature: 'v2.AAAA' },
      }),
    ).resolves.toBe(false);
  });

  it('when a signature is moved to another message, another case or another kind, then it does not verify', async () => {
    const first = await signedMessage('first');
    const second = await signedMessage('second');
    await expect(
      verifyStaffContent(team(), {
        incidentPublicKey: incidentKey,
        kind: 'message',
        ciphertexts: [second.ciphertext],
        signature: first.signature,
      }),
    ).resolves.toBe(false);
    await expect(
      verifyStaffContent(team(), {
        incidentPublicKey: otherIncidentKey,
        kind: 'message',
        ciphertexts: [first.ciphertext],
        signature: first.signature,
      }),
    ).resolves.toBe(false);
    await expect(
      verifyStaffContent(team(), {
        incidentPublicKey: incidentKey,
        kind: 'file',
        ciphertexts: [first.ciphertext],
        signature: first.signature,
      }),
    ).resolves.toBe(false);
  });
});

describe('endorsement chains: keys added after the report, reached only from a pinned admin', () => {
  it('when a pinned admin endorsed a member, and that member (an admin) another, then both are trusted', async () => {
    const admin = await member('a0000000-0000-4000-8000-000000000001', 'ADMIN');
    const newAdmin = await member('a0000000-0000-4000-8000-000000000002', 'ADMIN');
    const handler = await member('a0000000-0000-4000-8000-000000000003', 'HANDLER');
    const endorsements = [await endorse(newAdmin, handler.key), await endorse(admin, newAdmin.key)];
    const team = await resolveTeamKeys([admin.key], endorsements, COMPANY);
    expect([...team.keys()].sort()).toEqual([admin.key.key_id, newAdmin.key.key_id, handler.key.key_id].sort());
  });

  it('when the endorser is not pinned, is not an admin, or signs for another company, then nothing is added', async () => {
    const admin = await member('b0000000-0000-4000-8000-000000000001', 'ADMIN');
    const outsider = await member('b0000000-0000-4000-8000-000000000002', 'ADMIN');
    const pinnedHandler = await member('b0000000-0000-4000-8000-000000000003', 'HANDLER');
    const subject = (await member('b0000000-0000-4000-8000-000000000004', 'HANDLER')).key;
    const endorsements = [
      await endorse(outsider, subject),
      await endorse(pinnedHandler, subject),
      await endorse(admin, subject, '00000000-0000-4000-8000-000000000002'),
    ];
    const team = await resolveTeamKeys([admin.key, pinnedHandler.key], endorsements, COMPANY);
    expect(team.has(subject.key_id)).toBe(false);
    // Claiming the pinned admin endorsed it, with the outsider's signature, is no better.
    const claimed = { ...(await endorse(outsider, subject)), endorser_key_id: admin.key.key_id };
    expect((await resolveTeamKeys([admin.key], [claimed], COMPANY)).has(subject.key_id)).toBe(false);
  });

  it('when an endorsement is altered, then it adds nothing', async () => {
    const admin = await member('c0000000-0000-4000-8000-000000000001', 'ADMIN');
    const subject = (await member('c0000000-0000-4000-8000-000000000002', 'HANDLER')).key;
    const genuine = await endorse(admin, subject);
    const other = (await member('c0000000-0000-4000-8000-000000000003', 'HANDLER')).key;
    const altered: KeyEndorsement[] = [
      { ...genuine, signing_public_key: other.signing_public_key },
      { ...genuine, role: 'ADMIN' },
      { ...genuine, endorsed_at: '2020-01-01T00:00:00.000Z' },
      ...tamperedVariants(genuine.signature).map((t) => ({ ...genuine, signature: t.value })),
    ];
    for (const entry of altered)
      expect((await resolveTeamKeys([admin.key], [entry], COMPANY)).has(subject.key_id)).toBe(false);
    expect((await resolveTeamKeys([admin.key], [genuine], COMPANY)).has(subject.key_id)).toBe(true);
  });

  it('when endorsements form a loop with no pinned start, then none of them is trusted, and the walk ends', async () => {
    const pinned = await member('d0000000-0000-4000-8000-000000000001', 'ADMIN');
    const one = await member('d0000000-0000-4000-8000-000000000002', 'ADMIN');
    const two = await member('d0000000-0000-4000-8000-000000000003', 'ADMIN');
    const loop = [await endorse(one, two.key), await endorse(two, one.key)];
    const team = await resolveTeamKeys([pinned.key], loop, COMPANY);
    expect([...team.keys()]).toEqual([pinned.key.key_id]);
  });

  it("when checked against its endorser's key, then it verifies; against another key, or altered, it does not", async () => {
    const admin = await member('f0000000-0000-4000-8000-000000000001', 'ADMIN');
    const other = await member('f0000000-0000-4000-8000-000000000002', 'ADMIN');
    const subject = (await member('f0000000-0000-4000-8000-000000000003', 'HANDLER')).key;
    const genuine = await endorse(admin, subject);
    expect(await verifyKeyEndorsement(admin.key.signing_public_key, genuine)).toBe(true);
    expect(await verifyKeyEndorsement(other.key.signing_public_key, genuine)).toBe(false);
    expect(
      await verifyKeyEndorsement(admin.key.signing_public_key, { ...genuine, company_id: COMPANY.replace('1', '2') }),
    ).toBe(false);
    expect(await verifyKeyEndorsement('not a key', genuine)).toBe(false);
  });

  it('when an endorsement names a pinned key id with another key, then the pinned key stays', async () => {
    const admin = await member('e0000000-0000-4000-8000-000000000001', 'ADMIN');
    const handler = await member('e0000000-0000-4000-8000-000000000002', 'HANDLER');
    const impostor = await member(handler.key.key_id, 'HANDLER');
    const team = await resolveTeamKeys([admin.key, handler.key], [await endorse(admin, impostor.key)], COMPANY);
    expect(team.get(handler.key.key_id)?.signing_public_key).toBe(handler.key.signing_public_key);
  });
});

describe('the pinned team key list, sealed for the discloser with the report', () => {
  it('when the report is opened with its list, then the list comes back; dropped or swapped, the report does not open', async () => {
    const admin = await member('f0000000-0000-4000-8000-000000000001', 'ADMIN');
    const created = await createIncidentCredentials(await companyKey(), [], [admin.key]);
    const other = await createIncidentCredentials(await companyKey(), [], [admin.key]);
    const stored = { ...created.payload, discloserPassphrase: created.discloserPassphrase };
    expect(created.payload.discloser_encrypted_passphrase).toMatch(/^v2\./);
    await expect(openIncidentAsDiscloser(stored)).resolves.toBeDefined();
    await expect(openPinnedTeamKeys(stored)).resolves.toEqual([admin.key]);
    await expect(openIncidentAsDiscloser({ ...stored, discloser_team_keys: null })).rejects.toThrow(DecryptionError);
    await expect(
      openIncidentAsDiscloser({ ...stored, discloser_team_keys: other.payload.discloser_team_keys }),
    ).rejects.toThrow(DecryptionError);
  });

  it('when a report was made without a list, then it opens as before and pins nothing', async () => {
    const created = await createIncidentCredentials(await companyKey());
    const stored = { ...created.payload, discloserPassphrase: created.discloserPassphrase };
    expect(created.payload.discloser_encrypted_passphrase).toMatch(/^v1\./);
    expect(created.payload.discloser_team_keys).toBeUndefined();
    await expect(openIncidentAsDiscloser(stored)).resolves.toBeDefined();
    await expect(openPinnedTeamKeys(stored)).resolves.toBeNull();
  });
});

async function companyKey(): Promise<string> {
  const { publicKeys } = await createPersonKeys();
  return publicKeys.public_key;
}
