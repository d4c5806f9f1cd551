/**
 * Polls `check` until it returns a truthy value and resolves with it. The timeout only bounds a test
 * that would otherwise hang; it is not a timing assertion.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10000, intervalMs = 20, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
