/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  ApiError,
  approveRecord,
  createApiClient,
  createIncident,
  getDiscloserIncident,
  getProofOfWorkChallenge,
  listIncidentFiles,
  listIncidentMessages,
  sendIncidentMessage,
} from '@whistle/api-client';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  encryptContent,
  encryptReportFields,
} from '@whistle/crypto';
import { PACT_CATEGORY, PACT_COMPANY, PACT_DIR, PACT_LOCATION } from './fixtures';

const { datetime, eachLike, fromProviderState, integer, like, regex, uuid } = MatchersV3;

/** What the discloser pages expect of the incident service; verified in services/incident/test/pact. */
const pact = new PactV4({
  consumer: 'whistle-mfe-disclose',
  provider: 'whistle-incident',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const COMPANY_STATE = `a company with url_identifier ${PACT_COMPANY} and its category and location exists`;
const REPORTED_STATE = `an incident reported to ${PACT_COMPANY}`;
const OPENED_STATE = `an incident of ${PACT_COMPANY} opened by its discloser, with a message and a file`;
const RECORDED_STATE = `an incident of ${PACT_COMPANY} recorded by staff, opened by its reporter`;
const EXAMPLE_INCIDENT = '0e7c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e5f';
const EXAMPLE_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl';
const APPROVED_AT = '2026-03-04T11:00:00.000Z';
const versioned = (example: string) => regex(/^v[12]\.[A-Za-z0-9_.-]+$/, example);
const timestamp = (example: string) => datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", example);

let ciphertext: string;
beforeAll(async () => {
  const { credential } = await createCompanyCredentials();
  const { incident } = await createIncidentCredentials(credential.public_key);
  ciphertext = await encryptContent(incident.publicKey, 'text', { kind: 'message', from: 'discloser' });
});

describe('mfe-disclose → incident', () => {
  test('when the report form opens, then the proof of work its report needs comes back (none at normal volume)', async () => {
    await pact
      .addInteraction()
      .given(COMPANY_STATE)
      .uponReceiving('a proof-of-work challenge for a report')
      .withRequest('GET', '/api/incident/challenge', (request) =>
        request.query({ url_identifier: PACT_COMPANY }).headers({ Accept: 'application/json' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          challenge: like('0.1790000000.AAAAAAAAAAAAAAAAAAAAAA.mac'),
          difficulty: integer(0),
          expires: datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2026-03-04T11:00:00.000Z'),
        }),
      )
      .executeTest(async (server) => {
        const challenge = await getProofOfWorkChallenge(createApiClient({ baseUrl: server.url }), PACT_COMPANY);
        expect(challenge.difficulty).toBe(0);
      });
  });

  test('when a report is sent, then its uuid, retrieval id and report number come back', async () => {
    const { credential } = await createCompanyCredentials();
    const credentials = await createIncidentCredentials(credential.public_key);
    const payload = {
      ...credentials.payload,
      url_identifier: PACT_COMPANY,
      category_uuids: [PACT_CATEGORY],
      location_uuid: PACT_LOCATION,
      fields: await encryptReportFields(credentials.incident.publicKey, {
        description: 'what happened',
        can_contact: 'yes',
      }),
      report_anonymously: true,
      report_channel: 'online' as const,
    };
    await pact
      .addInteraction()
      .given(COMPANY_STATE)
      .uponReceiving('an encrypted report')
      .withRequest('POST', '/api/incident/', (request) =>
        request.headers({ Accept: 'application/json', 'Content-Type': 'application/json' }).jsonBody(payload),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({
          uuid: uuid(),
          retrieval_id: regex(/^[A-Za-z0-9_-]{1,128}$/, 'a1b2c3d4e5f6a7b8c9d0'),
          display_report_number: integer(7),
        }),
      )
      .executeTest(async (server) => {
        const created = await createIncident(createApiClient({ baseUrl: server.url }), payload as never);
        expect(created.retrieval_id).toBe('a1b2c3d4e5f6a7b8c9d0');
        expect(created.display_report_number).toBe(7);
      });
  });

  test('when a report lacks the description, then the field error comes back', async () => {
    const { credential } = await createCompanyCredentials();
    const credentials = await createIncidentCredentials(credential.public_key);
    const payload = {
      ...credentials.payload,
      url_identifier: PACT_COMPANY,
      category_uuids: [PACT_CATEGORY],
      location_uuid: PACT_LOCATION,
      fields: [],
      report_anonymously: false,
      report_channel: 'online' as const,
    };
    await pact
      .addInteraction()
      .given(COMPANY_STATE)
      .uponReceiving('a report without description')
      .withRequest('POST', '/api/incident/', (request) =>
        request.headers({ Accept: 'application/json', 'Content-Type': 'application/json' }).jsonBody(payload),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Invalid request body'),
          errors: { description: eachLike('This field is required') },
        }),
      )
      .executeTest(async (server) => {
        const error = (await createIncident(createApiClient({ baseUrl: server.url }), payload as never).catch(
          (caught: unknown) => caught,
        )) as ApiError;
        expect(error.status).toBe(400);
      });
  });

  test('when the discloser checks the status with the secret code, then the encrypted incident and a session token come back', async () => {
    await pact
      .addInteraction()
      .given(REPORTED_STATE)
      .uponReceiving('a discloser retrieval with the auth token')
      .withRequest('GET', '/api/incident/discloser', (request) =>
        request
          .query({
            url_identifier: PACT_COMPANY,
            retrieval_id: fromProviderState('${retrievalId}', 'a1b2c3d4e5f6a7b8c9d0'),
          })
          .headers({
            Accept: 'application/json',
            Authorization: fromProviderState(
              'Bearer ${authToken}',
              'Bearer QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZn',
            ),
          }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          uuid: uuid(),
          display_report_number: integer(1),
          status: { name: like('NEW') },
          report_channel: like('online'),
          report_anonymously: like(true),
          created: timestamp('2026-03-04T10:00:00.000Z'),
          updated: timestamp('2026-03-04T10:00:00.000Z'),
          last_activity_at: timestamp('2026-03-04T10:00:00.000Z'),
          location: { uuid: PACT_LOCATION, name: like('Head office') },
          categories: eachLike({ uuid: PACT_CATEGORY, name: like('Fraud and corruption'), parent_uuid: null }),
          fields: eachLike({ name: 'description', value: versioned('v2.a.b.c') }),
          credential: { public_key: versioned('v1.key'), aes_encrypted_private_key: versioned('v1.key') },
          aes_salt: like('c2FsdHNhbHRzYWx0c2FsdA'),
          aes_iv: like('aXZpdml2aXZpdml2'),
          discloser_encrypted_passphrase: versioned('v1.a.b.c'),
          token: like(EXAMPLE_TOKEN),
          token_expires_at: timestamp('2026-03-04T10:30:00.000Z'),
        }),
      )
      .executeTest(async (server) => {
        const api = createApiClient({
          baseUrl: server.url,
          getToken: () => 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZn',
        });
        const view = await getDiscloserIncident(api, PACT_COMPANY, 'a1b2c3d4e5f6a7b8c9d0');
        expect(view.token).toBe(EXAMPLE_TOKEN);
      });
  });

  test('when the secret code is wrong, then 401 Invalid secret code', async () => {
    await pact
      .addInteraction()
      .given(REPORTED_STATE)
      .uponReceiving('a discloser retrieval with a wrong auth token')
      .withRequest('GET', '/api/incident/discloser', (request) =>
        request
          .query({
            url_identifier: PACT_COMPANY,
            retrieval_id: fromProviderState('${retrievalId}', 'a1b2c3d4e5f6a7b8c9d0'),
          })
          .headers({
            Accept: 'application/json',
            Authorization: 'Bearer V1JPTkdXUk9OR1dST05HV1JPTkdXUk9OR1dST05HV1JP',
          }),
      )
      .willRespondWith(401, (response) => response.jsonBody({ message: 'Invalid secret code' }))
      .executeTest(async (server) => {
        const api = createApiClient({
          baseUrl: server.url,
          getToken: () => 'V1JPTkdXUk9OR1dST05HV1JPTkdXUk9OR1dST05HV1JP',
        });
        const error = (await getDiscloserIncident(api, PACT_COMPANY, 'a1b2c3d4e5f6a7b8c9d0').catch(
          (caught: unknown) => caught,
        )) as ApiError;
        expect(error.status).toBe(401);
      });
  });

  const sessionHeaders = {
    Accept: 'application/json',
    Authorization: fromProviderState('Bearer ${sessionToken}', `Bearer ${EXAMPLE_TOKEN}`),
  };
  const incidentPath = (suffix: string) =>
    fromProviderState(`/api/incident/\${incidentUuid}/${suffix}`, `/api/incident/${EXAMPLE_INCIDENT}/${suffix}`);
  const sessionApi = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_TOKEN });

  test('when the review page loads the thread, then the encrypted messages come back', async () => {
    await pact
      .addInteraction()
      .given(OPENED_STATE)
      .uponReceiving('a thread request with the discloser session token')
      .withRequest('GET', incidentPath('message'), (request) => request.headers(sessionHeaders))
      .willRespondWith(200, (response) =>
        response.jsonBody(
          eachLike({
            uuid: uuid(),
            incident_uuid: uuid(EXAMPLE_INCIDENT),
            content: versioned('v2.a.b.c'),
            created: timestamp('2026-03-04T10:00:00.000Z'),
            sender: { name: like('Discloser'), source: regex(/^(DISCLOSER|STAFF)$/, 'DISCLOSER') },
          }),
        ),
      )
      .executeTest(async (server) => {
        const thread = await listIncidentMessages(sessionApi(server.url), EXAMPLE_INCIDENT);
        expect(thread[0].sender.source).toBe('DISCLOSER');
      });
  });

  test("when the discloser replies, then the encrypted message comes back as the discloser's", async () => {
    await pact
      .addInteraction()
      .given(OPENED_STATE)
      .uponReceiving('an encrypted discloser message')
      .withRequest('POST', '/api/incident/message/', (request) =>
        request
          .headers({ ...sessionHeaders, 'Content-Type': 'application/json' })
          .jsonBody({ incident_uuid: fromProviderState('${incidentUuid}', EXAMPLE_INCIDENT), content: ciphertext }),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({
          uuid: uuid(),
          incident_uuid: uuid(EXAMPLE_INCIDENT),
          content: ciphertext,
          created: timestamp('2026-03-04T10:00:00.000Z'),
          sender: { name: like('Discloser'), source: 'DISCLOSER' },
        }),
      )
      .executeTest(async (server) => {
        const sent = await sendIncidentMessage(sessionApi(server.url), {
          incident_uuid: EXAMPLE_INCIDENT,
          content: ciphertext,
        });
        expect(sent.content).toBe(ciphertext);
      });
  });

  test('when the review page lists files, then their metadata comes back', async () => {
    await pact
      .addInteraction()
      .given(OPENED_STATE)
      .uponReceiving('a file list request with the discloser session token')
      .withRequest('GET', incidentPath('file'), (request) => request.headers(sessionHeaders))
      .willRespondWith(200, (response) =>
        response.jsonBody(
          eachLike({
            uuid: uuid(),
            incident_uuid: uuid(EXAMPLE_INCIDENT),
            incident_message_uuid: null,
            file_size: integer(12),
            mime_type: like('text/plain'),
            created: timestamp('2026-03-04T10:00:00.000Z'),
          }),
        ),
      )
      .executeTest(async (server) => {
        const files = await listIncidentFiles(sessionApi(server.url), EXAMPLE_INCIDENT);
        expect(files[0].file_size).toBe(12);
      });
  });

  test('when the reporter approves the record staff made of their report, then the time of the approval comes back', async () => {
    await pact
      .addInteraction()
      .given(RECORDED_STATE)
      .uponReceiving('an approval of a record made by staff, with the reporter session token')
      .withRequest('POST', incidentPath('record-approval'), (request) =>
        request.headers({ ...sessionHeaders, 'Content-Type': 'application/json' }).jsonBody({}),
      )
      .willRespondWith(200, (response) => response.jsonBody({ record_approved_at: timestamp(APPROVED_AT) }))
      .executeTest(async (server) => {
        const approval = await approveRecord(sessionApi(server.url), EXAMPLE_INCIDENT);
        expect(approval.record_approved_at).toBe(APPROVED_AT);
      });
  });
});
