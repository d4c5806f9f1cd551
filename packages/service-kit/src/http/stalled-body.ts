import type { Server } from 'node:http';
import type { RequestHandler } from 'express';

/** How long a request body may go without a byte before it is answered 408 and its connection closed. */
export const BODY_IDLE_TIMEOUT_MS = 30_000;
/** How long a client may take to send the request's headers (Node answers 408 past it). */
export const HEADERS_TIMEOUT_MS = 20_000;
/**
 * How long a client may take to send a whole request (Node answers 408 past it): a 25 MB upload, base64 in
 * JSON (34 MB), takes about 4.5 minutes on a 1 Mbit/s link; twice that leaves room for a slower one.
 */
export const REQUEST_TIMEOUT_MS = 10 * 60 * 1000;

export const STALLED_BODY_MESSAGE = 'The request body stopped arriving, please send it again';

/**
 * Bounds what a slow or stalled client holds (a connection, a file handle, an upload in flight): headers and
 * whole requests are bounded by the server (Node answers 408), a stalled body by `cutStalledBodies`.
 */
export function applyServerTimeouts(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
}

/**
 * A request body that stops arriving for `idleMs` is answered 408 JSON and its connection closed: the
 * handler reading it sees the body abort and lets go of what it held (an upload removes its object). A
 * slow body that keeps coming is not cut, nor one the handler holds back (paused: backpressure from a slow
 * store); once the body is complete, a slow handler is not either.
 */
export function cutStalledBodies(idleMs = BODY_IDLE_TIMEOUT_MS): RequestHandler {
  return (req, res, next) => {
    const length = req.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.complete) return next();
    // While the handler holds the body back (backpressure: its store is busy), the client is not the one stalling.
    const hold = () => req.setTimeout(0);
    const rearm = () => req.setTimeout(idleMs);
    const release = () => {
      req.setTimeout(0);
      req.off('timeout', stalled);
      req.off('pause', hold);
      req.off('resume', rearm);
    };
    const stalled = () => {
      release();
      if (req.complete) return;
      res.locals.bodyStalled = true;
      const cut = () => req.socket.destroy();
      if (res.headersSent) return cut();
      res.once('finish', cut);
      res.status(408).set('Connection', 'close').json({ message: STALLED_BODY_MESSAGE });
    };
    // The socket's inactivity timer (Node calls it again on each chunk); 'end' and 'close' do not start the
    // body flowing, so the handler still reads it as it wishes.
    req.setTimeout(idleMs, stalled);
    req.on('pause', hold);
    req.on('resume', rearm);
    req.once('end', release);
    req.once('close', release);
    next();
  };
}
