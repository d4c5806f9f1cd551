import net from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Router } from 'express';
import { captureLogger } from '../../test/capture-logger';
import { listen } from '../../test/listen';
import { createHttpApp } from './http-app';
import { applyServerTimeouts, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './stalled-body';

const idleMs = 400;

/** Sends `head` then the body's pieces with `gapMs` between them over a raw socket; answers what came back. */
async function rawRequest(
  port: number,
  head: string,
  pieces: string[],
  gapMs: number,
): Promise<{ text: string; closedAfterMs: number }> {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  socket.on('error', () => undefined);
  socket.write(head);
  for (const piece of pieces) {
    if (socket.destroyed) break;
    await sleep(gapMs);
    socket.write(piece);
  }
  // Waits for the answer; the server closes the connection after it (Connection: close).
  const closedAfterMs = await Promise.race([
    closed,
    sleep(10_000, undefined, { ref: false }).then(() => Number.POSITIVE_INFINITY),
  ]);
  socket.destroy();
  return { text, closedAfterMs };
}

describe('slow and stalled request bodies (issue 30, item 3)', () => {
  const { logger, entries } = captureLogger();
  const received: string[] = [];
  const router = Router();
  router.post('/echo', (req, res) => {
    received.push(JSON.stringify(req.body));
    res.json({ received: req.body as unknown });
  });
  let served: Awaited<ReturnType<typeof listen>>;
  let port: number;

  beforeAll(async () => {
    served = await listen(createHttpApp({ logger, services: [{ router }], bodyIdleTimeoutMs: idleMs }));
    port = Number(new URL(served.url).port);
  });
  afterAll(() => served.close());

  const head = (length: number) =>
    `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

  it('when a body stops arriving, then 408 JSON within the idle timeout and the connection is closed; the handler never runs and nothing is logged as an error', async () => {
    const body = '{"a":"' + 'x'.repeat(100) + '"}';
    const { text, closedAfterMs } = await rawRequest(port, head(body.length), [body.slice(0, 20)], 10);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('{"message":"The request body stopped arriving, please send it again"}');
    expect(closedAfterMs).toBeGreaterThanOrEqual(idleMs);
    expect(closedAfterMs).toBeLessThan(idleMs + 2000);
    expect(received).toEqual([]);
    expect(entries().filter((entry) => entry.level === 50)).toEqual([]);
  });

  it('when a body trickles in steadily for far longer than the idle timeout, then it is read whole and answered', async () => {
    // Its own server with a longer idle timeout: a byte every tenth of it leaves room for a loaded machine's timer
    // delays (CI once saw a 200 ms gap stretch past 400 ms), and 30 bytes still take three times the timeout.
    const trickleIdleMs = 1000;
    const app = await listen(createHttpApp({ logger, services: [{ router }], bodyIdleTimeoutMs: trickleIdleMs }));
    try {
      const body = JSON.stringify({ a: 'y'.repeat(22) });
      const { text } = await rawRequest(
        Number(new URL(app.url).port),
        head(body.length),
        [...body],
        trickleIdleMs / 10,
      );
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      expect(text).toContain(body);
    } finally {
      await app.close();
    }
  });

  it('when the body is complete and the handler is slow, then the idle timeout does not cut the answer', async () => {
    const slow = Router();
    slow.post('/slow', async (_req, res) => {
      await sleep(idleMs * 3);
      res.json({ done: true });
    });
    const app = await listen(createHttpApp({ logger, services: [{ router: slow }], bodyIdleTimeoutMs: idleMs }));
    try {
      const answer = await fetch(`${app.url}/slow`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('when the handler holds the body back longer than the idle timeout (backpressure), then it is not cut', async () => {
    const slowReader = Router();
    slowReader.post('/slow-reader', async (req, res) => {
      // A store that takes longer than the idle timeout per chunk, as S3 does with a 5 MiB part.
      const sink = new Writable({
        highWaterMark: 1024,
        write: (_chunk, _encoding, done) => void setTimeout(done, idleMs * 2),
      });
      await pipeline(req, sink);
      res.json({ read: true });
    });
    const app = await listen(
      createHttpApp({
        logger,
        services: [{ router: slowReader, extraContentTypes: ['application/octet-stream'] }],
        bodyIdleTimeoutMs: idleMs,
      }),
    );
    try {
      const answer = await fetch(`${app.url}/slow-reader`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(192 * 1024, 1),
      });
      expect(answer.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('when servers are set up, then headers and whole requests are bounded too', () => {
    const server = served.server;
    applyServerTimeouts(server);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
  });
});
