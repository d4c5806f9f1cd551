/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, downloadIncidentFile, getIncidentFile } from '@whistle/api-client';
import { EXAMPLE_FILE, EXAMPLE_TOKEN, FILE_STATE, PACT_DIR } from './fixtures';

const { fromProviderState, integer, regex, string, uuid } = MatchersV3;

/**
 * What the staff case page expects of the file service with a case's file token; verified in
 * services/file/test/pact. The state answers `fileToken` and `fileUuid`.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-file',
  dir: PACT_DIR,
  logLevel: 'warn',
});
const bearer = { Authorization: fromProviderState('Bearer ${fileToken}', `Bearer ${EXAMPLE_TOKEN}`) };
const filePath = fromProviderState('/api/incident/file/${fileUuid}', `/api/incident/file/${EXAMPLE_FILE}`);
const versioned = (example: string) => regex(/^v[12]\.[A-Za-z0-9_.-]+$/, example);
const files = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_TOKEN });

describe('mfe-incidents → file', () => {
  test('when staff list a file’s name, then its metadata comes with the encrypted name and key', async () => {
    await pact
      .addInteraction()
      .given(FILE_STATE)
      .uponReceiving('file metadata with a staff file token')
      .withRequest('GET', filePath, (request) => request.headers({ Accept: 'application/json', ...bearer }))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          uuid: uuid(EXAMPLE_FILE),
          incident_uuid: uuid(),
          incident_message_uuid: null,
          file_name: versioned('v2.AAAA'),
          encrypted_key: versioned('v2.BBBB'),
          file_size: integer(12),
          mime_type: string('text/plain'),
          created: string('2026-11-20T09:30:00.000Z'),
        }),
      )
      .executeTest(async (server) => {
        expect((await getIncidentFile(files(server.url), EXAMPLE_FILE)).file_name).toBe('v2.AAAA');
      });
  });

  test('when staff download a file, then its ciphertext comes with what decrypts it', async () => {
    await pact
      .addInteraction()
      .given(FILE_STATE)
      .uponReceiving('a file download with a staff file token')
      .withRequest('GET', filePath, (request) => request.headers({ Accept: 'application/octet-stream', ...bearer }))
      .willRespondWith(200, (response) =>
        response.headers({
          'Content-Type': 'application/octet-stream',
          'X-Whistle-Encrypted-Key': versioned('v2.BBBB'),
          'X-Whistle-Encrypted-File-Name': versioned('v2.AAAA'),
        }),
      )
      .executeTest(async (server) => {
        const downloaded = await downloadIncidentFile(files(server.url), EXAMPLE_FILE);
        expect(downloaded.encrypted_key).toBe('v2.BBBB');
      });
  });
});
