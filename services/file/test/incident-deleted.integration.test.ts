import { randomBytes } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import { createCompanyCredentials, createIncidentCredentials } from '@whistle/crypto';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import {
  createInspectableStore,
  discloserTokens,
  encryptedUploadBody,
  incidentServiceEvents,
  startFile,
  type InspectableStore,
  type RunningFile,
} from './support';

type Session = Awaited<ReturnType<ReturnType<typeof discloserTokens>['forNewIncident']>>;

describe.each(testStacks)('files of a deleted case on %s', (stack) => {
  let test$: TestDependencies;
  let store: InspectableStore;
  let file: RunningFile;
  let publicKey: string;
  let publish: Awaited<ReturnType<typeof incidentServiceEvents>>;
  const tokens = discloserTokens();

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['file']);
    store = await createInspectableStore(stack);
    // The incident service's outbox stands in as the producer of incident.deleted.
    publish = await incidentServiceEvents(test$);
    file = await startFile({ ...test$.deps, objects: store.objects }, tokens.publicKeyPem);
    publicKey = (await createIncidentCredentials((await createCompanyCredentials()).credential.public_key)).incident
      .publicKey;
  });
  afterAll(async () => {
    await file?.close();
    await store?.dispose();
    await test$?.dispose();
  });

  /** An encrypted file uploaded as the browser sends it. */
  async function upload(session: Session): Promise<Response> {
    const { body } = await encryptedUploadBody(publicKey, session.incidentId, randomBytes(2_000));
    return fetch(`${file.baseUrl}/api/incident/file/`, {
      method: 'POST',
      headers: {
        'content-type': FILE_UPLOAD_CONTENT_TYPE,
        accept: 'application/json',
        authorization: `Bearer ${session.token}`,
      },
      body: JSON.stringify(body),
    });
  }

  async function uploaded(session: Session): Promise<string> {
    const response = await upload(session);
    expect(response.status).toBe(201);
    return ((await response.json()) as { uuid: string }).uuid;
  }

  /** incident.deleted as the incident service announces it, through a real outbox; the envelope, to send again. */
  async function announceDeleted(session: Session, again?: EventEnvelope): Promise<EventEnvelope> {
    if (again) {
      await test$.deps.bus.publish(again);
      return again;
    }
    return publish({
      name: 'incident.deleted',
      company_id: session.companyId,
      payload: { incident_id: session.incidentId, display_report_number: 7, reason: 'retention' },
      actor: { type: 'SYSTEM' },
    });
  }

  const objectKeysOf = async (session: Session) =>
    (
      await test$.deps.db.query<{ object_key: string }>(
        'select object_key from file.file where incident_id = $1 order by object_key',
        [session.incidentId],
      )
    ).rows.map((row) => row.object_key);

  const handled = (eventId: string) =>
    waitFor(
      async () =>
        (await test$.deps.db.query('select 1 from file.inbox where event_id = $1', [eventId])).rows.length > 0,
      { what: 'the event in the file service inbox' },
    );

  test('when a case is deleted, then exactly its files leave the object store and the database; other cases keep theirs', async () => {
    const doomed = await tokens.forNewIncident();
    const sibling = await tokens.staffOf(await tokens.forNewIncident(doomed.companyId));
    const otherCompany = await tokens.forNewIncident();
    await uploaded(doomed);
    await uploaded(doomed);
    await uploaded(sibling);
    await uploaded(otherCompany);
    const doomedKeys = await objectKeysOf(doomed);
    const keptKeys = [...(await objectKeysOf(sibling)), ...(await objectKeysOf(otherCompany))];
    expect(doomedKeys).toHaveLength(2);
    expect(await store.keys()).toEqual(expect.arrayContaining([...doomedKeys, ...keptKeys]));

    const event = await announceDeleted(doomed);
    await handled(event.id);

    expect(await objectKeysOf(doomed)).toEqual([]);
    const left = await store.keys();
    expect(left.filter((key) => doomedKeys.includes(key))).toEqual([]);
    expect(left).toEqual(expect.arrayContaining(keptKeys));
    for (const key of keptKeys) expect((await store.read(key)).length).toBeGreaterThan(0);
    expect((await objectKeysOf(sibling)).length + (await objectKeysOf(otherCompany)).length).toBe(2);
  });

  test('when the deletion comes again after a partial run (objects already gone), then it finishes the job; a repeat changes nothing', async () => {
    const doomed = await tokens.forNewIncident();
    await uploaded(doomed);
    await uploaded(doomed);
    const [firstKey, secondKey] = await objectKeysOf(doomed);
    // A run that deleted one object before its transaction rolled back: the rows are still there.
    await store.objects.delete(firstKey!);

    const event = await announceDeleted(doomed);
    await handled(event.id);
    expect(await objectKeysOf(doomed)).toEqual([]);
    expect((await store.keys()).filter((key) => key === firstKey || key === secondKey)).toEqual([]);

    // The same envelope redelivered, and a second announcement: both find nothing left and succeed.
    await announceDeleted(doomed, event);
    const second = await announceDeleted(doomed);
    await handled(second.id);
    expect(test$.deps.logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  test('when a session token of a deleted case uploads afterwards, then 404 and nothing is kept', async () => {
    const doomed = await tokens.forNewIncident();
    await handled((await announceDeleted(doomed)).id);
    const before = (await store.keys()).length;

    const response = await upload(doomed);

    expect(response.status).toBe(404);
    expect(await objectKeysOf(doomed)).toEqual([]);
    expect((await store.keys()).length).toBe(before);
    // The case's other side is not affected: another case of the company still takes files.
    expect(await uploaded(await tokens.forNewIncident(doomed.companyId))).toEqual(expect.any(String));
  });
});
