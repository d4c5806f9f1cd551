import { createHash, randomBytes } from 'node:crypto';
import { TooManyRequestsError } from '@whistle/service-kit';

/** A discloser's uploads under way at once: the browser sends one file at a time, so two leave room. */
export const UPLOADS_AT_ONCE_PER_SESSION = 2;
/** Disclosers' uploads under way at once from one client address (several disclosers can share one). */
export const UPLOADS_AT_ONCE_PER_CLIENT = 10;
export const UPLOADS_AT_ONCE_MESSAGE = 'Too many files are being sent at once, please wait for one to finish';

/**
 * Counts the uploads each discloser session and each client address has under way in this process, so slow
 * clients cannot hold every connection and file handle (issue 30). Addresses are counted by a salted hash,
 * never kept as such; the salt is new at each start.
 */
export function uploadsInFlight(
  limits = { perSession: UPLOADS_AT_ONCE_PER_SESSION, perClient: UPLOADS_AT_ONCE_PER_CLIENT },
) {
  const salt = randomBytes(16);
  const counts = new Map<string, number>();
  const keyOf = (kind: string, value: string) =>
    createHash('sha256').update(salt).update(`${kind}:${value}`).digest('base64');
  /** Takes a slot for the session and the address, or throws 429; the answer gives it back. */
  return (sessionId: string, address: string): (() => void) => {
    const held: [string, number][] = [
      [keyOf('session', sessionId), limits.perSession],
      [keyOf('client', address), limits.perClient],
    ];
    if (held.some(([key, limit]) => (counts.get(key) ?? 0) >= limit))
      throw new TooManyRequestsError(UPLOADS_AT_ONCE_MESSAGE, 5);
    for (const [key] of held) counts.set(key, (counts.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [key] of held) {
        const left = (counts.get(key) ?? 1) - 1;
        if (left > 0) counts.set(key, left);
        else counts.delete(key);
      }
    };
  };
}
