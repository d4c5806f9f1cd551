const DELAYS_MS = [300, 1000];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * fetch that tries again after a network failure (flaky mobile connection, pod restarting);
 * an HTTP answer, even an error, is final.
 */
export async function fetchWithRetry(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (attempt >= DELAYS_MS.length || init?.signal?.aborted) throw error;
      await wait(DELAYS_MS[attempt]);
    }
  }
}
