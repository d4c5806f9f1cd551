import {
  createIncidentCredentials,
  encryptContent,
  encryptReportFields,
  openIncidentAsDiscloser,
  openPinnedTeamKeys,
  signStaffContent,
  verifyStaffContent,
  type TeamKey,
} from '@whistle/crypto';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import {
  announceKeys,
  announceStaff,
  call,
  fileReport,
  getJson,
  prepareProducer,
  retrievalUrl,
  seedCompany,
  startIncident,
  type KeyedMember,
  type RunningIncident,
  type SeededCompany,
} from './support';

describe.each(testStacks)('signed staff messages, in the incident service, on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  const teamKeyOf = (member: KeyedMember): TeamKey => ({
    key_id: member.keyId,
    signing_public_key: member.keys.publicKeys.signing_public_key,
    role: 'ADMIN',
  });

  /** A report pinning `pinned`, and the discloser's view of it (opened with the secret code's passphrase). */
  async function pinnedReport(company: SeededCompany, pinned: TeamKey[]) {
    const credentials = await createIncidentCredentials(company.publicKey, [], pinned);
    const created = await fileReport(incident.baseUrl, {
      url_identifier: company.urlIdentifier,
      category_uuids: [company.categories.fraud],
      location_uuid: company.locations.office,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, { description: 'Someone moved money' }),
      report_anonymously: true,
    });
    const response = await getJson(
      retrievalUrl(incident.baseUrl, company.urlIdentifier, created.retrieval_id),
      credentials.payload.discloser_auth_token,
    );
    const view = await response.json();
    return { id: created.uuid, credentials, view };
  }

  async function signedReply(member: KeyedMember, incidentPublicKey: string, text: string) {
    const content = await encryptContent(incidentPublicKey, text, { kind: 'message', from: 'staff' });
    const signature = await signStaffContent(member.keys, {
      incidentPublicKey,
      kind: 'message',
      ciphertexts: [content],
    });
    return { content, signature };
  }

  it('when a report pins the team keys and an admin sends a signed reply, then the discloser gets both and the reply verifies', async () => {
    const company = await seedCompany(test$.deps);
    const admin = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']));
    const { id, credentials, view } = await pinnedReport(company, [teamKeyOf(admin)]);
    expect(view.discloser_team_keys).toBe(credentials.payload.discloser_team_keys);
    const stored = { ...view, discloserPassphrase: credentials.discloserPassphrase };
    await openIncidentAsDiscloser(stored);
    const pinned = (await openPinnedTeamKeys(stored))!;
    expect(pinned.map((key) => key.key_id)).toEqual([admin.keyId]);

    const reply = await signedReply(admin, credentials.incident.publicKey, 'We are on it.');
    const sent = await call(incident.baseUrl, 'POST', '/api/incident/message/', {
      token: await admin.token(),
      body: { incident_uuid: id, ...reply },
    });
    expect(sent.status).toBe(201);
    // Stored with the id of the sender's current key.
    expect(sent.body.signature).toEqual({ ...reply.signature, signer_key_id: admin.keyId });

    const thread = await call(incident.baseUrl, 'GET', `/api/incident/${id}/message`, { token: view.token });
    expect(thread.body).toHaveLength(1);
    const [message] = thread.body;
    const team = new Map(pinned.map((key) => [key.key_id, key]));
    await expect(
      verifyStaffContent(team, {
        incidentPublicKey: view.credential.public_key,
        kind: 'message',
        ciphertexts: [message.content],
        signature: message.signature,
      }),
    ).resolves.toBe(true);
  });

  it('when a staff message is sent unsigned, then it is listed with a null signature', async () => {
    const company = await seedCompany(test$.deps);
    const admin = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']));
    const { id, credentials, view } = await pinnedReport(company, [teamKeyOf(admin)]);
    const content = await encryptContent(credentials.incident.publicKey, 'Hi', { kind: 'message', from: 'staff' });
    const sent = await call(incident.baseUrl, 'POST', '/api/incident/message/', {
      token: await admin.token(),
      body: { incident_uuid: id, content },
    });
    expect(sent.status).toBe(201);
    const thread = await call(incident.baseUrl, 'GET', `/api/incident/${id}/message`, { token: view.token });
    expect(thread.body[0].signature).toBeNull();
  });

  it('when the sender has no signing key, the signature is malformed, or it comes from the discloser, then 400 on it and nothing is stored', async () => {
    const company = await seedCompany(test$.deps);
    const admin = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']));
    const other = await announceStaff(test$.deps, company, 'Olga Other', ['ADMIN']);
    const { id, credentials, view } = await pinnedReport(company, [teamKeyOf(admin)]);
    const reply = await signedReply(admin, credentials.incident.publicKey, 'Hello');
    const count = async () =>
      (await test$.deps.db.query('select count(*)::int as n from incident.message where incident_id = $1', [id]))
        .rows[0].n;

    const asOther = await call(incident.baseUrl, 'POST', '/api/incident/message/', {
      token: await other.token(),
      body: { incident_uuid: id, ...reply },
    });
    expect(asOther.status).toBe(400);
    expect(asOther.body.errors).toEqual({ signature: ['You have no signing key yet'] });

    for (const [signature, field] of [
      [{ ...reply.signature, signature: 'v2.AAAA' }, 'signature.signature'],
      [{ ...reply.signature, nonce: 'nonce' }, 'signature.nonce'],
      [{ ...reply.signature, signer_key_id: admin.keyId }, 'signature'],
    ] as const) {
      const refused = await call(incident.baseUrl, 'POST', '/api/incident/message/', {
        token: await admin.token(),
        body: { incident_uuid: id, content: reply.content, signature },
      });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.errors)).toEqual([field]);
    }

    const asDiscloser = await call(incident.baseUrl, 'POST', '/api/incident/message/', {
      token: view.token,
      body: { incident_uuid: id, ...reply },
    });
    expect(asDiscloser.status).toBe(400);
    expect(await count()).toBe(0);
  });

  it('when a case is closed with a signed final message, then the discloser gets its signature; one from a sender without keys is a 400', async () => {
    const company = await seedCompany(test$.deps);
    const admin = await announceKeys(test$.deps, await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']));
    const other = await announceStaff(test$.deps, company, 'Olga Other', ['ADMIN']);
    const { id, credentials, view } = await pinnedReport(company, [teamKeyOf(admin)]);
    const key = credentials.incident.publicKey;
    const final = await signedReply(admin, key, 'It is resolved.');
    const closing = {
      status: 'CLOSED',
      outcome: 'substantiated',
      motivation: await encryptContent(key, 'Done', { kind: 'motivation' }),
      final_message: final.content,
      final_message_signature: final.signature,
    };
    const refused = await call(incident.baseUrl, 'PUT', `/api/incident/${id}/`, {
      token: await other.token(),
      body: closing,
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['final_message_signature']);
    const closed = await call(incident.baseUrl, 'PUT', `/api/incident/${id}/`, {
      token: await admin.token(),
      body: closing,
    });
    expect(closed.status).toBe(200);
    const thread = await call(incident.baseUrl, 'GET', `/api/incident/${id}/message`, { token: view.token });
    expect(thread.body.map((message: { signature: unknown }) => message.signature)).toEqual([
      { ...final.signature, signer_key_id: admin.keyId },
    ]);
  });
});
