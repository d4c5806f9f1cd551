import { ApiError, ApiNetworkError, isIgnoredByErrorReporting, RequestAbortedError } from './api-error';
import { createApiClient, withToken } from './client';
import { companyQrCodeUrl, createCompany, getCompanyPublicView } from './company';

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

const json = (status: number, body: unknown, type = 'application/json', statusText = '') =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': type } });

describe('request', () => {
  it('when sending a body, then it is JSON with Accept, no credentials and no token by default', async () => {
    fetchMock.mockResolvedValue(json(200, { ok: true }));
    const result = await createApiClient().request('POST', '/api/x', { body: { a: 1 } });
    expect(result).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/x');
    expect(init).toMatchObject({ method: 'POST', body: '{"a":1}', credentials: 'omit' });
    expect(init.headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json' });
  });

  it('when a token is available, then it is sent as Bearer after the base URL', async () => {
    fetchMock.mockResolvedValue(json(200, {}));
    await createApiClient({ baseUrl: 'https://w.example', getToken: () => 'abc' }).request('GET', '/api/y');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('https://w.example/api/y');
    expect(init.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer abc' });
    expect(init.body).toBeUndefined();
  });

  it('when another token is attached, then it alone is the Bearer, on the same base URL, and the original keeps its own', async () => {
    fetchMock.mockImplementation(async () => json(200, {}));
    const staff = createApiClient({ baseUrl: '/b', getToken: () => 'staff' });
    const challenge = withToken(staff, 'challenge-1');
    expect(challenge.baseUrl).toBe('/b');
    expect(challenge.headers('text/plain')).toEqual({ Accept: 'text/plain', Authorization: 'Bearer challenge-1' });
    await challenge.request('POST', '/api/m', { body: {} });
    await staff.request('GET', '/api/n');
    expect(
      fetchMock.mock.calls.map(([url, init]) => [url, (init.headers as Record<string, string>).Authorization]),
    ).toEqual([
      ['/b/api/m', 'Bearer challenge-1'],
      ['/b/api/n', 'Bearer staff'],
    ]);
    expect(createApiClient().headers()).toEqual({ Accept: 'application/json' });
  });

  it('when the answer is problem+json, then it is parsed; text otherwise; 204 is undefined', async () => {
    const api = createApiClient();
    fetchMock.mockResolvedValueOnce(json(200, { p: 1 }, 'application/problem+json'));
    await expect(api.request('GET', '/a')).resolves.toEqual({ p: 1 });
    fetchMock.mockResolvedValueOnce(new Response('plain', { status: 200, headers: { 'content-type': 'text/plain' } }));
    await expect(api.request('GET', '/b')).resolves.toBe('plain');
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(api.request('DELETE', '/c')).resolves.toBeUndefined();
  });
});

describe('error catalogue', () => {
  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
  ])(
    'when the status is %i, then the message is %s and the error carries url, status, text and body',
    async (status, message) => {
      const body = { message: 'server says' };
      fetchMock.mockResolvedValue(json(status, body, 'application/json', 'Reason'));
      const error = await createApiClient()
        .request('GET', '/api/z')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ message, url: '/api/z', status, statusText: 'Reason', body });
    },
  );

  it('when the status is not in the catalogue, then the message has status, status text and body', async () => {
    fetchMock.mockResolvedValue(new Response('slow down', { status: 429, statusText: 'Too Many Requests' }));
    await expect(createApiClient().request('GET', '/api/z')).rejects.toThrow(
      'Request failed with status 429 Too Many Requests: slow down',
    );
  });

  it('when the request is aborted, then the error is Request aborted', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('The operation was aborted.', 'AbortError')),
          );
        }),
    );
    const pending = createApiClient().request('GET', '/api/slow', { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as Error).message).toBe('Request aborted');
  });

  it('when no answer comes, then the error has status 0 and is still the TypeError fetch threw', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await createApiClient()
      .request('GET', '/api/z')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'Failed to fetch', url: '/api/z', status: 0 });
  });
});

describe('error reporting filter (spec §8: ignores status 0, 401, 403, 413 and 5xx)', () => {
  const failure = async (status: number) => {
    fetchMock.mockResolvedValue(json(status, { message: 'x' }));
    return createApiClient()
      .request('GET', '/api/z')
      .catch((caught: unknown) => caught);
  };

  it.each([401, 403, 413, 500, 502, 503, 504, 599])(
    'when the API answers %i, then the error is not reported',
    async (status) => {
      expect(isIgnoredByErrorReporting(await failure(status))).toBe(true);
    },
  );

  it.each([400, 404, 405, 409, 410, 422, 429])(
    'when the API answers %i, then the error is reported',
    async (status) => {
      expect(isIgnoredByErrorReporting(await failure(status))).toBe(false);
    },
  );

  it('when no answer comes or the request is cancelled, then nothing is reported (status 0)', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const unanswered = await createApiClient()
      .request('GET', '/api/z')
      .catch((caught: unknown) => caught);
    expect(isIgnoredByErrorReporting(unanswered)).toBe(true);
    expect(isIgnoredByErrorReporting(new RequestAbortedError())).toBe(true);
  });

  it('when the error comes from another copy of the client (another bundle), then its name and status decide', () => {
    const foreign = Object.assign(new Error('Forbidden'), { name: 'ApiError', status: 403 });
    expect(isIgnoredByErrorReporting(foreign)).toBe(true);
    expect(isIgnoredByErrorReporting(Object.assign(new Error('Not Found'), { name: 'ApiError', status: 404 }))).toBe(
      false,
    );
  });

  it('when the error is not an API error, then it is reported', () => {
    expect(isIgnoredByErrorReporting(new Error('render crash'))).toBe(false);
    expect(isIgnoredByErrorReporting(new TypeError('x is undefined'))).toBe(false);
    expect(isIgnoredByErrorReporting({ status: 500 })).toBe(false);
  });
});

describe('company calls', () => {
  it('when creating a company, then the payload is posted to /api/account/company', async () => {
    fetchMock.mockResolvedValue(json(201, { url_identifier: 'acme' }));
    const payload = {
      user_profile: {
        email: 'a@acme.example',
        password: `v2.${'s'.repeat(43)}`,
        full_name: 'Ada',
        kdf: 'argon2id-v2' as const,
        kdf_salt: 'k'.repeat(22),
        keys: {
          public_key: 'v1.p',
          signing_public_key: 'v1.q',
          unlock: { method: 'password' as const, sealed_private_keys: 'v2.a.b' },
        },
      },
      name: 'Acme',
      credential: { aes_encrypted_private_key: 'v2.a.b.c', public_key: 'v1.b' },
      passphrase: 'v2.g.r.a',
      country: 'FR',
    };
    await expect(createCompany(createApiClient(), payload)).resolves.toEqual({ url_identifier: 'acme' });
    expect(fetchMock.mock.calls[0][0]).toBe('/api/account/company');
    expect(JSON.parse(fetchMock.mock.calls[0][1].body as string)).toEqual(payload);
  });

  it('when reading a public view or the QR code, then the url_identifier is encoded in the path', async () => {
    fetchMock.mockResolvedValue(json(200, { name: 'Acme' }));
    await getCompanyPublicView(createApiClient(), 'acme');
    expect(fetchMock.mock.calls[0][0]).toBe('/api/account/company/acme');
    expect(companyQrCodeUrl(createApiClient({ baseUrl: '/b' }), 'a/b')).toBe('/b/api/account/company/a%2Fb/qrcode');
  });
});
