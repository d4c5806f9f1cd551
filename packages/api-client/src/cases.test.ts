import { ApiError } from './api-error';
import { caseQueryString, exportCases, getCase, listCases, updateCase } from './cases';
import { createApiClient } from './client';

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

const api = createApiClient({ getToken: () => 'staff-token' });
const uuid = '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a10';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('case calls', () => {
  it('when the list is asked with filters, then lists repeat their key and empty values are left out', async () => {
    expect(caseQueryString({ sort: '-created', status: ['NEW', 'CLOSED'], overdue: undefined, page: '' })).toBe(
      '?sort=-created&status=NEW&status=CLOSED',
    );
    expect(caseQueryString({})).toBe('');
    fetchMock.mockResolvedValue(json(200, { count: 0, page: 1, page_size: 20, results: [] }));
    await listCases(api, { page: '2' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(`${init.method} ${url}`).toBe('GET /api/incident/?page=2');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer staff-token' });
  });

  it('when a case is read and updated, then the paths are the spec’s', async () => {
    fetchMock.mockImplementation(async () => json(200, {}));
    await getCase(api, uuid);
    await updateCase(api, uuid, { status: 'ACKNOWLEDGED' });
    expect(fetchMock.mock.calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
      `GET /api/incident/${uuid}`,
      `PUT /api/incident/${uuid}/`,
    ]);
  });

  it('when the export streams NDJSON in pieces, then each row comes whole and the total first', async () => {
    const lines = [JSON.stringify({ uuid: 'a' }), JSON.stringify({ uuid: 'b' }), JSON.stringify({ uuid: 'c' })].join(
      '\n',
    );
    const chunks = [lines.slice(0, 7), lines.slice(7, 20), lines.slice(20)];
    fetchMock.mockResolvedValue(
      new Response(
        new ReadableStream({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
            controller.close();
          },
        }),
        { status: 200, headers: { 'x-total-count': '3', 'content-type': 'application/x-ndjson' } },
      ),
    );
    const totals: number[] = [];
    const rows = [];
    for await (const row of exportCases(api, { channel: 'online' }, { onTotal: (total) => totals.push(total) }))
      rows.push(row.uuid);
    expect(rows).toEqual(['a', 'b', 'c']);
    expect(totals).toEqual([3]);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/incident/export?channel=online');
  });

  it('when the export is refused, then an ApiError carries the status and the JSON body', async () => {
    fetchMock.mockImplementation(async () => json(400, { message: 'Invalid query parameters' }));
    const rows = exportCases(api, { sort: 'bad' });
    await expect(rows.next()).rejects.toMatchObject({ status: 400, body: { message: 'Invalid query parameters' } });
    await expect(exportCases(api, {}).next()).rejects.toBeInstanceOf(ApiError);
  });
});
