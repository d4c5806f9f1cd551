import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface RequestTracker {
  /** Requests whose handlers have not finished their answer yet. */
  readonly inFlight: number;
  /**
   * Closes the server: no new connection, idle ones closed, answers not yet begun say `Connection: close` so
   * keep-alive clients let go; resolves once the connections are closed and every handler has answered (true),
   * or after `graceMs` with the connections left cut and some handlers still running (false).
   */
  close(graceMs: number): Promise<boolean>;
}

/**
 * Counts the requests of `server` until their handlers are done with them, which is not when their connection
 * closes: a client that gives up closes the socket while its handler still awaits the database, and a shutdown
 * that waited for sockets only would close the pool under that handler (a 500 nobody receives, "Cannot use a
 * pool after calling end" in the log). A handler is done when it ends its response (`res.end`, whatever sent
 * it: a route, the error middleware) or destroys it (a failed stream); the socket's state does not matter.
 */
export function trackRequests(server: Server): RequestTracker {
  const pending = new Set<ServerResponse>();
  let draining = false;
  let waiters: (() => void)[] = [];

  const finished = (res: ServerResponse) => {
    if (!pending.delete(res) || pending.size > 0) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };

  // Before the app's own listener: a handler that answers in the same tick (`/healthz`) ends its response before
  // any later listener runs, and would stay counted forever, holding every shutdown for its whole grace period.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    pending.add(res);
    const end = res.end;
    const destroy = res.destroy;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      finished(res);
      return (end as (...endArgs: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['end'];
    res.destroy = function (this: ServerResponse, error?: Error) {
      finished(res);
      return destroy.call(this, error);
    };
  });

  const settled = (timeoutMs: number): Promise<boolean> => {
    if (pending.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiters = waiters.filter((each) => each !== wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      waiters.push(wake);
    });
  };

  return {
    get inFlight() {
      return pending.size;
    },
    async close(graceMs) {
      draining = true;
      for (const res of pending) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs).unref();
      // Sockets may be gone while their handlers still query: done only when both are.
      const [, handled] = await Promise.all([closed, settled(graceMs)]);
      clearTimeout(deadline);
      return handled;
    },
  };
}
