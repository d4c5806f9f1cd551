import { createHash } from 'node:crypto';
import { createApiClient } from './client';
import { isCommonPassword } from './common-password';

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('isCommonPassword', () => {
  it('when the list answers the suffix of the password’s hash, then it is common, whatever its case, and only a 2-character prefix was sent', async () => {
    const hash = sha256('password123');
    fetchMock.mockResolvedValue(json(200, { suffixes: ['0000000000000000', hash.slice(2, 18)] }));
    expect(await isCommonPassword(createApiClient(), 'PassWord123')).toBe(true);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`/api/account/password/common/${hash.slice(0, 2)}`);
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
    // Neither the password nor any more of its hash leaves the browser.
    expect(JSON.stringify(fetchMock.mock.calls)).not.toContain(hash.slice(0, 3));
    expect(JSON.stringify(fetchMock.mock.calls).toLowerCase()).not.toContain('password123');
  });

  it('when the suffix is not among those answered, then it is not common', async () => {
    fetchMock.mockResolvedValue(json(200, { suffixes: ['0000000000000000'] }));
    expect(await isCommonPassword(createApiClient(), 'a rather unusual passphrase')).toBe(false);
  });

  it('when the list cannot be reached or answers nonsense, then the check stands aside (false)', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await isCommonPassword(createApiClient(), 'password123')).toBe(false);
    fetchMock.mockResolvedValueOnce(json(503, { message: 'Service Unavailable' }));
    expect(await isCommonPassword(createApiClient(), 'password123')).toBe(false);
    fetchMock.mockResolvedValueOnce(json(200, { nothing: true }));
    expect(await isCommonPassword(createApiClient(), 'password123')).toBe(false);
  });
});
