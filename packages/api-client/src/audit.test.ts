import { exportAuditLog, listAuditLog, verifyAuditLog } from './audit';
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
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('audit trail calls', () => {
  it('when the trail is listed with filters, then they travel as the query, lists repeated, empty ones left out', async () => {
    fetchMock.mockResolvedValue(json(200, { count: 0, page: 2, page_size: 20, results: [] }));
    await listAuditLog(api, { table_identifiers: ['incident', 'incident_note'], action: '', page: 2, page_size: 20 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(`${init.method} ${url}`).toBe(
      'GET /api/account/company/audit_log/?table_identifiers=incident&table_identifiers=incident_note&page=2&page_size=20',
    );
    expect(init.headers).toMatchObject({ Authorization: 'Bearer staff-token' });
  });

  it('when the chain is verified, then the verify path is asked', async () => {
    fetchMock.mockResolvedValue(json(200, { intact: true, checked: 3, first_broken: null, truncated: false }));
    expect(await verifyAuditLog(api)).toMatchObject({ intact: true });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/account/company/audit_log/verify');
  });

  it('when the trail is exported, then the CSV comes back as a blob, asked with the Bearer token and the filters', async () => {
    fetchMock.mockResolvedValue(new Response('Date (UTC),Action\n', { headers: { 'content-type': 'text/csv' } }));
    const blob = await exportAuditLog(api, { action: 'logout', from: '2026-01-01' });
    expect(await blob.text()).toBe('Date (UTC),Action\n');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/account/company/audit_log/export?action=logout&from=2026-01-01');
    expect(init).toMatchObject({
      credentials: 'omit',
      headers: { Accept: 'text/csv', Authorization: 'Bearer staff-token' },
    });
  });

  it('when the export is refused, then an ApiError carries the status and the field errors', async () => {
    fetchMock.mockResolvedValue(
      json(400, { message: 'Bad Request', errors: { to: ['The period ends before it starts'] } }),
    );
    await expect(exportAuditLog(api, { from: '2026-02-01', to: '2026-01-01' })).rejects.toMatchObject({
      status: 400,
      body: { errors: { to: ['The period ends before it starts'] } },
    });
  });
});
