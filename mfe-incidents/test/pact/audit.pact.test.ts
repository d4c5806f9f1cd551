/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, listAuditLog } from '@whistle/api-client';
import { auditLogResponseSchema } from '@whistle/contracts';
import { CASE_TRAIL_STATE, EXAMPLE_CASE, EXAMPLE_TOKEN, PACT_DIR } from './fixtures';
import { CASE_AUDIT_PAGE_SIZE } from '../../src/incident-detail/use-case-audit';

const { boolean, datetime, eachLike, fromProviderState, integer, regex, string, uuid } = MatchersV3;

/**
 * What a case's timeline expects of the audit service; verified in services/audit/test/pact. The state
 * answers `staffToken` (an admin's access token) and has recorded their opening of EXAMPLE_CASE and a note on it.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-audit',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const bearer = { Authorization: fromProviderState('Bearer ${staffToken}', `Bearer ${EXAMPLE_TOKEN}`) };

describe('mfe-incidents → audit', () => {
  test('when an admin opens a case, then its trail comes page by page, newest first, each entry saying who did what and when', async () => {
    await pact
      .addInteraction()
      .given(CASE_TRAIL_STATE)
      .uponReceiving("a case's audit trail")
      .withRequest('GET', '/api/account/company/audit_log/', (request) =>
        request
          .headers({ Accept: 'application/json', ...bearer })
          .query({ incident: EXAMPLE_CASE, page: '1', page_size: String(CASE_AUDIT_PAGE_SIZE) }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          count: integer(2),
          page: 1,
          page_size: CASE_AUDIT_PAGE_SIZE,
          results: eachLike(
            {
              uuid: uuid(),
              action: regex(/^[a-z]+(-[a-z]+)*$/, 'incident-opened'),
              success: boolean(true),
              table_identifier: string('incident'),
              object_uuid: uuid(EXAMPLE_CASE),
              incident_uuid: EXAMPLE_CASE,
              actor: {
                type: regex(/^(STAFF|DISCLOSER|SYSTEM)$/, 'STAFF'),
                uuid: uuid(),
                name: string('Ada Lovelace'),
              },
              occurred_at: datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2026-11-20T09:30:00.000Z'),
            },
            2,
          ),
        }),
      )
      .executeTest(async (server) => {
        const api = createApiClient({ baseUrl: server.url, getToken: () => EXAMPLE_TOKEN });
        const trail = await listAuditLog(api, { incident: EXAMPLE_CASE, page: 1, page_size: CASE_AUDIT_PAGE_SIZE });
        // The page reads what the contract says the service sends.
        expect(auditLogResponseSchema.parse(trail).results.every((entry) => entry.incident_uuid === EXAMPLE_CASE)).toBe(
          true,
        );
      });
  });
});
