export { freePort } from '@whistle/test-support/free-port';

/** Polls `url` until it answers 200, or fails with what the process printed. */
export async function waitForHttp(url: string, timeoutMs: number, describeFailure: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in ${timeoutMs} ms\n${describeFailure()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
