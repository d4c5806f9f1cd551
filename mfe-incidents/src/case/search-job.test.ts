/**
 * @jest-environment node
 */
// Node's fetch, streams and WebCrypto, as the worker has them in the browser (jsdom has no TextDecoderStream).
import { encryptedReport, testCompany, type TestCompany } from '../../test/staff-fixtures';
import { MATCHES_SENT, runSearch, type SearchMessage } from './search-job';

let company: TestCompany;
beforeAll(async () => {
  company = await testCompany();
});
const realFetch = global.fetch;
afterEach(() => {
  global.fetch = realFetch;
});

const uuidOf = (n: number) => `6f1c3f44-3b4e-4c55-8f5c-${String(n).padStart(12, '0')}`;

describe('the search job', () => {
  it('when the corpus streams in, then the words stay in the worker, matches come first and progress after, capped and counted', async () => {
    const copper = await encryptedReport(company, { description: 'Copper left the quarry', full_name: 'Jane' });
    const other = await encryptedReport(company, { description: 'Badges shared at the gate' });
    // 150 cases: 120 hold the words, 30 do not; one more is another company's and does not open.
    const stranger = await encryptedReport(await testCompany(), { description: 'Copper quarry' });
    const rows = Array.from({ length: 150 }, (_, i) => ({
      uuid: uuidOf(i + 1),
      display_report_number: i + 1,
      ...(i % 5 === 4 ? other : copper),
    })).map(({ credentials: _credentials, ...row }) => row);
    const { credentials: _unused, ...strangerRow } = stranger;
    rows.push({ uuid: uuidOf(151), display_report_number: 151, ...strangerRow });
    const asked: { url: string; authorization: string | null }[] = [];
    global.fetch = (async (url: string, init: RequestInit) => {
      asked.push({ url, authorization: new Headers(init.headers).get('authorization') });
      return new Response(rows.map((row) => `${JSON.stringify(row)}\n`).join(''), {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson', 'x-total-count': String(rows.length) },
      });
    }) as typeof fetch;

    const posted: SearchMessage[] = [];
    await runSearch(
      {
        job: 'search',
        baseUrl: 'https://whistle.example',
        token: 'staff-token',
        query: 'QUARRY copper',
        companyPrivateKey: company.privateKey,
      },
      (message) => posted.push(message),
    );

    // The words are not in the request: only the corpus, with the staff token.
    expect(asked).toEqual([
      { url: 'https://whistle.example/api/incident/search-corpus', authorization: 'Bearer staff-token' },
    ]);
    const done = posted.at(-1)!;
    expect(done).toMatchObject({ type: 'done', done: 151, total: 151, found: 120, unreadable: 1 });
    // The first batch's matches are posted at once.
    expect(posted[0]).toMatchObject({ type: 'progress', done: 50, total: 151, found: 40 });
    const hits = posted.flatMap((message) => ('hits' in message ? message.hits : []));
    expect(hits).toHaveLength(MATCHES_SENT);
    expect(hits[0]).toEqual({ uuid: uuidOf(1), display_report_number: 1, snippet: 'Copper left the quarry' });
    expect(hits.map((hit) => hit.display_report_number % 5)).not.toContain(0);
  });

  it('when the corpus is refused, then the job says so with the status', async () => {
    global.fetch = (async () => new Response('{}', { status: 403 })) as unknown as typeof fetch;
    const posted: SearchMessage[] = [];
    await runSearch(
      { job: 'search', baseUrl: '', token: 't', query: 'x', companyPrivateKey: company.privateKey },
      (message) => posted.push(message),
    );
    expect(posted).toEqual([{ type: 'failed', status: 403 }]);
  });
});
