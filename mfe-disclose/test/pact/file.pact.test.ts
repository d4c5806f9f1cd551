/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, downloadIncidentFile, getIncidentFile, withToken } from '@whistle/api-client';
import { PACT_DIR, PACT_INCIDENT } from './fixtures';

const { datetime, fromProviderState, integer, like, regex, uuid } = MatchersV3;

/**
 * What the discloser pages expect of the file service; verified in services/file/test/pact.
 * The upload itself is not here: Pact's mock server refuses a JSON document sent under the
 * upload's own media type (it sniffs JSON and expects the declared type), so the upload's shape is
 * covered by the file service's integration tests and the discloser browser journey instead.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-disclose',
  provider: 'whistle-file',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const STORED_STATE = `a file stored for incident ${PACT_INCIDENT}`;
const EXAMPLE_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl';
const EXAMPLE_FILE = '0e7c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e60';
const authorization = fromProviderState('Bearer ${sessionToken}', `Bearer ${EXAMPLE_TOKEN}`);
/** The discloser session's client, as the review page has it. */
const sessionApi = (url: string) => withToken(createApiClient({ baseUrl: url }), EXAMPLE_TOKEN);
const versioned = (example: string) => regex(/^v[12]\.[A-Za-z0-9_.-]+$/, example);

const fileMetadata = {
  uuid: uuid(EXAMPLE_FILE),
  incident_uuid: PACT_INCIDENT,
  incident_message_uuid: null,
  file_name: versioned('v2.a.b.c'),
  encrypted_key: versioned('v2.a.b.c'),
  file_size: integer(12),
  mime_type: like('text/plain'),
  created: datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2026-03-04T10:00:00.000Z'),
};

const SIGNED_STATE = `a signed staff file stored for incident ${PACT_INCIDENT}`;

describe('mfe-disclose → file', () => {
  test('when the review page names a file of the case team, then its digest and signature come with it', async () => {
    await pact
      .addInteraction()
      .given(SIGNED_STATE)
      .uponReceiving('a signed staff file metadata request')
      .withRequest(
        'GET',
        fromProviderState('/api/incident/file/${fileUuid}', `/api/incident/file/${EXAMPLE_FILE}`),
        (request) => request.headers({ Accept: 'application/json', Authorization: authorization }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          ...fileMetadata,
          content_digest: regex(/^[A-Za-z0-9_-]{43}$/, 'Cx0Yl6YQ1mJjvYVwl0J9mrY6ZkY0fTQ2H3eVZpz3a1s'),
          signature: {
            signer_key_id: uuid(),
            nonce: regex(/^v2\.[A-Za-z0-9_-]{22}$/, `v2.${'A'.repeat(22)}`),
            signature: regex(/^v2\.[A-Za-z0-9_-]{86}$/, `v2.${'B'.repeat(86)}`),
          },
        }),
      )
      .executeTest(async (server) => {
        const file = await getIncidentFile(sessionApi(server.url), EXAMPLE_FILE);
        expect(file.signature?.signature).toMatch(/^v2\./);
        expect(file.content_digest).toHaveLength(43);
      });
  });

  test('when the review page names a file, then its encrypted name comes with the metadata', async () => {
    await pact
      .addInteraction()
      .given(STORED_STATE)
      .uponReceiving('a file metadata request')
      .withRequest(
        'GET',
        fromProviderState('/api/incident/file/${fileUuid}', `/api/incident/file/${EXAMPLE_FILE}`),
        (request) => request.headers({ Accept: 'application/json', Authorization: authorization }),
      )
      .willRespondWith(200, (response) => response.jsonBody(fileMetadata))
      .executeTest(async (server) => {
        const file = await getIncidentFile(sessionApi(server.url), EXAMPLE_FILE);
        expect(file.file_name).toMatch(/^v2\./);
      });
  });

  test('when a file is downloaded, then the ciphertext comes with its encrypted key and name', async () => {
    await pact
      .addInteraction()
      .given(STORED_STATE)
      .uponReceiving('a file download')
      .withRequest(
        'GET',
        fromProviderState('/api/incident/file/${fileUuid}', `/api/incident/file/${EXAMPLE_FILE}`),
        (request) => request.headers({ Accept: 'application/octet-stream', Authorization: authorization }),
      )
      .willRespondWith(200, (response) =>
        response.headers({
          'Content-Type': 'application/octet-stream',
          'X-Whistle-Encrypted-Key': versioned('v2.a.b.c'),
          'X-Whistle-Encrypted-File-Name': versioned('v2.a.b.c'),
        }),
      )
      .executeTest(async (server) => {
        const file = await downloadIncidentFile(sessionApi(server.url), EXAMPLE_FILE);
        expect(file.encrypted_key).toBe('v2.a.b.c');
      });
  });
});
