import { ApiError } from './api-error';
import { createApiClient, withToken } from './client';
import { FILE_UPLOAD_CONTENT_TYPE as CONTRACT_CONTENT_TYPE } from '@whistle/contracts';
import { FILE_UPLOAD_CONTENT_TYPE, downloadIncidentFile } from './file';
import { getDiscloserIncident, listIncidentFiles, listIncidentMessages, sendIncidentMessage } from './incident';

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const uuid = '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a10';

describe('incident calls', () => {
  it('when retrieving, then the query names company and retrieval id and the token is the Bearer', async () => {
    fetchMock.mockResolvedValue(json(200, { uuid }));
    await getDiscloserIncident(createApiClient({ getToken: () => 'auth-token' }), 'acme corp', 'abc123');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/incident/discloser?url_identifier=acme+corp&retrieval_id=abc123');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer auth-token' });
  });

  it('when messages and files are read or sent, then the paths are the incident service ones', async () => {
    fetchMock.mockImplementation(async () => json(200, []));
    const api = createApiClient({ getToken: () => 'session' });
    await listIncidentMessages(api, uuid);
    await listIncidentFiles(api, uuid);
    await sendIncidentMessage(api, { incident_uuid: uuid, content: 'v1.x' });
    expect(fetchMock.mock.calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
      `GET /api/incident/${uuid}/message`,
      `GET /api/incident/${uuid}/file`,
      'POST /api/incident/message/',
    ]);
    expect(JSON.parse(fetchMock.mock.calls[2][1].body as string)).toEqual({ incident_uuid: uuid, content: 'v1.x' });
  });
});

describe('file calls', () => {
  it('when downloading, then the ciphertext comes with the encrypted key and name headers', async () => {
    fetchMock.mockResolvedValue(
      new Response(new Uint8Array([1, 2, 3]), {
        status: 200,
        headers: { 'x-whistle-encrypted-key': 'v1.k', 'x-whistle-encrypted-file-name': 'v1.n' },
      }),
    );
    const file = await downloadIncidentFile(withToken(createApiClient(), 'session'), uuid);
    expect(Array.from(file.ciphertext)).toEqual([1, 2, 3]);
    expect(file).toMatchObject({ encrypted_key: 'v1.k', encrypted_file_name: 'v1.n' });
    expect(fetchMock.mock.calls[0][1].headers).toEqual({
      Accept: 'application/octet-stream',
      Authorization: 'Bearer session',
    });
  });

  it('when a download is refused, then the error carries the status', async () => {
    fetchMock.mockImplementation(async () => json(404, { message: 'Not Found' }));
    const api = withToken(createApiClient(), 'session');
    await expect(downloadIncidentFile(api, uuid)).rejects.toMatchObject({ status: 404 });
    await expect(downloadIncidentFile(api, uuid)).rejects.toBeInstanceOf(ApiError);
  });

  it("when uploading, then the media type is the contract's", () => {
    expect(FILE_UPLOAD_CONTENT_TYPE).toBe(CONTRACT_CONTENT_TYPE);
  });
});
