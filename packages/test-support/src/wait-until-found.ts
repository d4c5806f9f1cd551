/**
 * Polls `find` every 50 ms until it returns something and resolves with it; after 20 s, fails with `failure()`.
 * The bound only keeps a test from hanging: it is no timing assertion.
 */
export async function waitUntilFound<T>(find: () => T | undefined, failure: () => string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
