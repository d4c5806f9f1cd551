/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, exportCases } from '@whistle/api-client';
import { CASE_STATE, EXAMPLE_CASE, EXAMPLE_TOKEN, PACT_DIR } from './fixtures';

const { fromProviderState, regex } = MatchersV3;

/**
 * The case export the staff list's CSV is made of, as mfe-incidents expects it of the incident service; in the
 * same pact as incident.pact.test.ts (Pact merges the interactions), verified in services/incident/test/pact.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-incident',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const bearer = { Authorization: fromProviderState('Bearer ${staffToken}', `Bearer ${EXAMPLE_TOKEN}`) };
const client = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_TOKEN });

/*
 * The export's answer is NDJSON, which Pact matches as text: one regular expression (Rust's regex, so no
 * look-ahead) over the line, with the spec's fields in the order the service writes them and the extended
 * export's outcome, assignees and clocks after them.
 */
const json = {
  uuid: '"[0-9a-f-]{36}"',
  text: '"(?:[^"\\\\]|\\\\.)*"',
  time: '"\\d{4}-\\d{2}-\\d{2}T[^"]+"',
};
const clockPattern = `\\{(?:"(?:due_at|done_at|state)":(?:null|${json.text}),?){3}\\}`;
const exportLinePattern = [
  `^\\{"uuid":${json.uuid}`,
  `"display_report_number":\\d+`,
  `"status":\\{"name":"[A-Z]+"\\}`,
  `"report_anonymously":(?:true|false)`,
  `"created":${json.time}`,
  `"updated":${json.time}`,
  `"location":\\{[^{}]*\\}`,
  `"management_categories":\\[[^\\]]*\\]`,
  `"full_name":(?:null|${json.text})`,
  // The caller's own per-case grant, if any, closes the keys (null when they hold none).
  `"keys":\\{"credential":\\{[^{}]*\\}(?:,"[a-z_]+":${json.text})+(?:,"my_grant":(?:null|\\{[^{}]*\\}))?\\}`,
  `"outcome":(?:null|"[a-z_]+")`,
  `"assignees":\\[(?:\\{[^{}]*\\},?)*\\]`,
  `"clocks":\\{"acknowledgement":${clockPattern},"feedback":${clockPattern},"resolution":${clockPattern}\\}\\}\\n$`,
].join(',');
/**
 * A text body of a type that is neither JSON nor XML. The builder's `body()` takes it as binary and adds a
 * matcher on the type sniffed from its bytes, which reads one NDJSON line as application/json; set as text,
 * the way `jsonBody()` sets JSON, the body is matched by its rules alone.
 */
function withTextBody<Builder extends object>(response: Builder, contentType: string, text: string): Builder {
  const { interaction } = response as unknown as {
    interaction: { withResponseBody(body: string, contentType: string): boolean };
  };
  interaction.withResponseBody(text, contentType);
  return response;
}

const exampleClock = { due_at: '2026-12-01T10:00:00.000Z', done_at: null, state: 'due' };
const exampleExportRow = {
  uuid: EXAMPLE_CASE,
  display_report_number: 1,
  status: { name: 'NEW' },
  report_anonymously: true,
  created: '2026-11-20T09:30:00.000Z',
  updated: '2026-11-20T09:30:00.000Z',
  location: { uuid: '7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e61', name: 'Head office' },
  management_categories: [{ uuid: '7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e62', name: 'Fraud', parent_uuid: null }],
  full_name: null,
  keys: {
    credential: { public_key: 'v1.AAAA', aes_encrypted_private_key: 'v1.BBBB' },
    aes_salt: 'c2FsdHNhbHRzYWx0c2FsdA',
    aes_iv: 'aXZpdml2aXZpdml2',
    company_encrypted_passphrase: 'v1.CCCC',
  },
  outcome: null,
  assignees: [],
  clocks: { acknowledgement: exampleClock, feedback: exampleClock, resolution: exampleClock },
};

describe('mfe-incidents → incident: export', () => {
  test('when an admin exports the cases, then NDJSON rows come with their total, the extended export’s figures after the spec’s', async () => {
    const exampleLine = `${JSON.stringify(exampleExportRow)}\n`;
    // The example honours its own rule, as the provider's answer must.
    expect(exampleLine).toMatch(new RegExp(exportLinePattern));
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('an export of the cases')
      .withRequest('GET', '/api/incident/export', (request) =>
        request.headers({ Accept: 'application/x-ndjson', ...bearer }),
      )
      .willRespondWith(200, (response) =>
        withTextBody(
          response.headers({
            'Content-Type': regex(/^application\/x-ndjson/, 'application/x-ndjson; charset=utf-8'),
            'X-Total-Count': regex(/^\d+$/, '1'),
          }),
          'application/x-ndjson',
          exampleLine,
        ).matchingRules({ body: { path: '$', rules: [regex(exportLinePattern, exampleLine)] } }),
      )
      .executeTest(async (server) => {
        let total = 0;
        const rows = [];
        for await (const row of exportCases(client(server.url), {}, { onTotal: (count) => (total = count) }))
          rows.push(row);
        expect(total).toBe(1);
        expect(rows).toEqual([exampleExportRow]);
      });
  });

  test('when an admin exports selected cases, then the rows of those cases come, as the whole export’s do', async () => {
    const exampleLine = `${JSON.stringify(exampleExportRow)}\n`;
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('an export of selected cases')
      .withRequest('GET', '/api/incident/export', (request) =>
        request
          .query({ incident: fromProviderState('${incidentUuid}', EXAMPLE_CASE) })
          .headers({ Accept: 'application/x-ndjson', ...bearer }),
      )
      .willRespondWith(200, (response) =>
        withTextBody(
          response.headers({
            'Content-Type': regex(/^application\/x-ndjson/, 'application/x-ndjson; charset=utf-8'),
            'X-Total-Count': regex(/^1$/, '1'),
          }),
          'application/x-ndjson',
          exampleLine,
        ).matchingRules({ body: { path: '$', rules: [regex(exportLinePattern, exampleLine)] } }),
      )
      .executeTest(async (server) => {
        const rows = [];
        for await (const row of exportCases(client(server.url), { incident: [EXAMPLE_CASE] })) rows.push(row);
        expect(rows).toEqual([exampleExportRow]);
      });
  });
});
