/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, recordStaffReport } from '@whistle/api-client';
import { createCompanyCredentials, createIncidentCredentials, encryptReportFields } from '@whistle/crypto';
import { EXAMPLE_TOKEN, PACT_DIR, RECORD_STATE } from './fixtures';

const { fromProviderState, regex, uuid } = MatchersV3;

/** A report taken by staff (issue 26) as the intake page sends it; verified in services/incident/test/pact. */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-incident',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const bearer = { Authorization: fromProviderState('Bearer ${staffToken}', `Bearer ${EXAMPLE_TOKEN}`) };
const client = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_TOKEN });

describe('mfe-incidents → incident: reports taken by staff', () => {
  test('when a handler records a report taken by telephone, then its uuid and retrieval id come back', async () => {
    const { credential } = await createCompanyCredentials();
    const credentials = await createIncidentCredentials(credential.public_key);
    const example = {
      ...credentials.payload,
      url_identifier: 'acme-cases-pact',
      category_uuids: ['5b0f3c1e-8a3e-4f7a-9d1a-6f2b8c3d4e01'],
      location_uuid: '5b0f3c1e-8a3e-4f7a-9d1a-6f2b8c3d4e03',
      fields: await encryptReportFields(credentials.incident.publicKey, { description: 'said on the phone' }),
      report_anonymously: true,
      report_channel: 'telephone' as const,
    };
    await pact
      .addInteraction()
      .given(RECORD_STATE)
      .uponReceiving('a report recorded by a handler from a telephone call')
      .withRequest('POST', '/api/incident/recorded', (request) =>
        request.headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer }).jsonBody({
          ...example,
          url_identifier: fromProviderState('${urlIdentifier}', example.url_identifier),
          category_uuids: [fromProviderState('${categoryUuid}', example.category_uuids[0]!)],
          location_uuid: fromProviderState('${locationUuid}', example.location_uuid),
        }),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({ uuid: uuid(), retrieval_id: regex(/^[a-f0-9]{20}$/, 'a1b2c3d4e5f6a7b8c9d0') }),
      )
      .executeTest(async (server) => {
        const created = await recordStaffReport(client(server.url), example as never);
        expect(created.retrieval_id).toBe('a1b2c3d4e5f6a7b8c9d0');
      });
  });
});
