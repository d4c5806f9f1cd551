import { randomUUID } from 'node:crypto';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  deriveDiscloserAuthToken,
  encryptContent,
  encryptReportFields,
} from '@whistle/crypto';
import { createOutbox } from '@whistle/service-kit';
import { createTestDependencies, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import type { IncidentDependencies } from '../../src/service';
import {
  getJson,
  postJson,
  prepareProducer,
  retrievalUrl,
  staffToken,
  startIncident,
  type RunningIncident,
} from '../support';
import {
  PACT_CATEGORY,
  PACT_COMPANY,
  PACT_COMPANY_ID,
  PACT_LOCATION,
} from '../../../../mfe-disclose/test/pact/fixtures';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';

let test$: TestDependencies;
let incident: RunningIncident;
let companyPublicKey: string;

/** An event as another service announces it: through a real outbox, then the bus. */
async function announce(
  deps: IncidentDependencies,
  name: 'company.created' | 'incident.file.created',
  payload: Record<string, unknown>,
) {
  const envelope = await deps.db.transaction((tx) =>
    createOutbox('producer').add(tx, { name, company_id: PACT_COMPANY_ID, payload } as never),
  );
  await deps.bus.publish(envelope);
}

beforeAll(async () => {
  test$ = await createTestDependencies('pglite+in-process');
  incident = await startIncident(test$.deps);
  await prepareProducer(test$.deps);
  // The company the discloser pact names, with the category and location ids its report form sends.
  const { credential } = await createCompanyCredentials();
  companyPublicKey = credential.public_key;
  await announce(test$.deps, 'company.created', {
    company_id: PACT_COMPANY_ID,
    url_identifier: PACT_COMPANY,
    name: 'Acme Corporation',
    country: 'FR',
    created_by: { user_id: randomUUID(), email: 'admin@acme-disclose.example' },
    categories: [{ uuid: PACT_CATEGORY, name: 'Fraud and corruption', parent_uuid: null, is_active: true }],
    locations: [{ uuid: PACT_LOCATION, name: 'Head office', is_active: true }],
  });
  await waitFor(
    async () =>
      (await test$.deps.db.query('select 1 from incident.location where id = $1', [PACT_LOCATION])).rows.length > 0,
    {
      what: 'the pact company in the incident read model',
    },
  );
});
afterAll(async () => {
  await incident?.close();
  await test$?.dispose();
});

/** A report as the discloser's browser sends it; answers what its secret code would give. */
async function report(): Promise<{ retrievalId: string; authToken: string; uuid: string; publicKey: string }> {
  const credentials = await createIncidentCredentials(companyPublicKey);
  const response = await postJson(`${incident.baseUrl}/api/incident/`, {
    ...credentials.payload,
    url_identifier: PACT_COMPANY,
    category_uuids: [PACT_CATEGORY],
    location_uuid: PACT_LOCATION,
    fields: await encryptReportFields(credentials.incident.publicKey, { description: 'what happened' }),
    report_anonymously: true,
    report_channel: 'online',
  });
  if (response.status !== 201) throw new Error(`report refused: ${response.status}`);
  const { uuid, retrieval_id: retrievalId } = (await response.json()) as { uuid: string; retrieval_id: string };
  return {
    uuid,
    retrievalId,
    authToken: await deriveDiscloserAuthToken(credentials.discloserPassphrase),
    publicKey: credentials.incident.publicKey,
  };
}

/** A report opened with its secret code, with a discloser message and a file on the report. */
async function openedIncident() {
  const { uuid, retrievalId, authToken, publicKey } = await report();
  const view = (await (await getJson(retrievalUrl(incident.baseUrl, PACT_COMPANY, retrievalId), authToken)).json()) as {
    token: string;
  };
  const message = await postJson(
    `${incident.baseUrl}/api/incident/message/`,
    { incident_uuid: uuid, content: await encryptContent(publicKey, 'hello', { kind: 'message', from: 'discloser' }) },
    {
      authorization: `Bearer ${view.token}`,
    },
  );
  if (message.status !== 201) throw new Error(`message refused: ${message.status}`);
  const fileId = randomUUID();
  await announce(test$.deps, 'incident.file.created', {
    incident_id: uuid,
    incident_file_id: fileId,
    incident_message_id: null,
    file_size: 12,
    mime_type: 'text/plain',
  });
  await waitFor(
    async () => (await test$.deps.db.query('select 1 from incident.file where id = $1', [fileId])).rows.length > 0,
    {
      what: 'the file in the incident read model',
    },
  );
  return { incidentUuid: uuid, sessionToken: view.token };
}

/** A report a handler of the company recorded from a telephone call, opened with the code they passed on. */
async function recordedIncident() {
  const credentials = await createIncidentCredentials(companyPublicKey);
  const token = await staffToken({ userId: randomUUID(), companyId: PACT_COMPANY_ID, roles: ['HANDLER'] });
  const response = await postJson(
    `${incident.baseUrl}/api/incident/recorded`,
    {
      ...credentials.payload,
      url_identifier: PACT_COMPANY,
      category_uuids: [PACT_CATEGORY],
      location_uuid: PACT_LOCATION,
      fields: await encryptReportFields(credentials.incident.publicKey, { description: 'said on the phone' }),
      report_anonymously: true,
      report_channel: 'telephone',
    },
    { authorization: `Bearer ${token}` },
  );
  if (response.status !== 201) throw new Error(`record refused: ${response.status}`);
  const { uuid, retrieval_id: retrievalId } = (await response.json()) as { uuid: string; retrieval_id: string };
  const authToken = await deriveDiscloserAuthToken(credentials.discloserPassphrase);
  const view = (await (await getJson(retrievalUrl(incident.baseUrl, PACT_COMPANY, retrievalId), authToken)).json()) as {
    token: string;
  };
  return { incidentUuid: uuid, sessionToken: view.token };
}

test(
  "when the discloser pages' pact is replayed against incident, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-disclose',
      provider: 'whistle-incident',
      baseUrl: incident.baseUrl,
      stateHandlers: {
        // Seeded once before the verification: reports only add to it.
        [`a company with url_identifier ${PACT_COMPANY} and its category and location exists`]: async () => undefined,
        [`an incident reported to ${PACT_COMPANY}`]: async () => {
          const { retrievalId, authToken } = await report();
          return { retrievalId, authToken };
        },
        [`an incident of ${PACT_COMPANY} opened by its discloser, with a message and a file`]: openedIncident,
        [`an incident of ${PACT_COMPANY} recorded by staff, opened by its reporter`]: recordedIncident,
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
