import { fetchWithRetry } from './fetch-with-retry';

describe('fetchWithRetry', () => {
  afterEach(() => jest.restoreAllMocks());

  it('when the network fails twice, then the third attempt answers', async () => {
    jest.useFakeTimers();
    const fetchMock = jest
      .spyOn(globalThis, 'fetch')
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('{}'));
    const pending = fetchWithRetry('/remotes.json');
    await jest.runAllTimersAsync();
    await expect(pending).resolves.toBeInstanceOf(Response);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    jest.useRealTimers();
  });

  it('when the network keeps failing, then the last error is thrown', async () => {
    jest.useFakeTimers();
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const pending = fetchWithRetry('/remotes.json');
    const outcome = expect(pending).rejects.toThrow('Failed to fetch');
    await jest.runAllTimersAsync();
    await outcome;
    jest.useRealTimers();
  });

  it('when the server answers an error status, then it is not retried', async () => {
    const fetchMock = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('', { status: 503 }));
    await expect(fetchWithRetry('/remotes.json')).resolves.toHaveProperty('status', 503);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
