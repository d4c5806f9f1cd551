import { Router } from 'express';
import { ERROR_REPORT_TUNNEL_PATH } from '@whistle/contracts';
import { startSentryServer, type SentryServer } from '@whistle/test-support/sentry-server';
import { captureLogger } from '../../test/capture-logger';
import { listen } from '../../test/listen';
import {
  AuthenticationError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '../errors/errors';
import { createHttpApp } from '../http/http-app';
import { startErrorReporting, type ErrorReporter } from './error-reporter';
import { errorReportTunnel } from './tunnel';

/** What a discloser or staff member might send: it must never reach the error-reporting service. */
const CANARY = 'canary-7c1f9e2d';

function faultyRouter(): Router {
  const router = Router();
  router.post('/api/incident/crash', () => {
    throw new Error('the fault of the service');
  });
  router.get('/api/incident/unauthenticated', () => {
    throw new AuthenticationError();
  });
  router.get('/api/incident/forbidden', () => {
    throw new NotAllowedError();
  });
  router.get('/api/incident/missing', () => {
    throw new NotFoundError();
  });
  router.get('/api/incident/invalid', () => {
    throw new InputError();
  });
  router.get('/api/incident/outage', () => {
    throw new ServiceUnavailableError();
  });
  router.post('/api/incident/upload', () => {
    throw new Error('unreachable: the body is refused first');
  });
  return router;
}

const eventMessages = (sentry: SentryServer) =>
  sentry
    .items('event')
    .map((item) => (item.payload as { exception?: { values?: { value?: string }[] } }).exception?.values?.[0]?.value);

describe('error reporting of a service (Sentry Node SDK against a loopback ingest endpoint)', () => {
  let sentry: SentryServer;
  let reporter: ErrorReporter;
  let api: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    sentry = await startSentryServer();
    reporter = await startErrorReporting(
      { SENTRY_DSN: sentry.dsn(), SENTRY_TRACES_SAMPLE_RATE: 1, SENTRY_ENVIRONMENT: 'test' },
      'incident',
    );
    api = await listen(
      createHttpApp({
        logger: captureLogger().logger,
        services: [{ router: faultyRouter() }],
        bodyLimit: '1kb',
        errorReporter: reporter,
      }),
    );
  });

  afterAll(async () => {
    await api.close();
    await sentry.close();
    await (await import('@sentry/node')).close();
    // The SDK's carrier on globalThis: Jest's clean-up of leaked globals recurses on its `version` setter.
    delete (globalThis as { __SENTRY__?: unknown }).__SENTRY__;
  });

  it('when a handler fails, then the error is reported with the method and path only, and the answers the client is meant to get are not', async () => {
    const secretHeaders = {
      Authorization: `Bearer ${CANARY}`,
      Cookie: `session=${CANARY}`,
      'X-Forwarded-For': '203.0.113.77',
    };
    // Expected answers first: none of them may become an event.
    for (const [path, status] of [
      ['unauthenticated', 401],
      ['forbidden', 403],
      ['missing', 404],
      ['invalid', 400],
      ['outage', 503],
    ] as const) {
      const response = await fetch(`${api.url}/api/incident/${path}?retrieval_id=${CANARY}`, {
        headers: secretHeaders,
      });
      expect(response.status).toBe(status);
    }
    const tooLarge = await fetch(`${api.url}/api/incident/upload`, {
      method: 'POST',
      headers: { ...secretHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: CANARY.repeat(100) }),
    });
    expect(tooLarge.status).toBe(413);

    const crash = await fetch(`${api.url}/api/incident/crash?retrieval_id=${CANARY}`, {
      method: 'POST',
      headers: { ...secretHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: CANARY }),
    });
    expect(crash.status).toBe(500);
    await reporter.flush();

    const event = (await sentry.waitForItem('event')).payload as {
      exception: { values: { type: string; value: string }[] };
      request?: unknown;
      tags?: Record<string, string>;
      environment?: string;
      user?: unknown;
    };
    expect(event.exception.values[0]).toMatchObject({ type: 'Error', value: 'the fault of the service' });
    expect(event.request).toEqual({ method: 'POST', url: '/api/incident/crash' });
    expect(event.tags).toMatchObject({ 'http.method': 'POST', 'http.route': '/api/incident/crash' });
    expect(event.environment).toBe('test');
    expect(event.user).toBeUndefined();
    expect(eventMessages(sentry)).toEqual(['the fault of the service']);

    // Spec §8: trace sample rate 1; the request's span says as little as the event.
    await sentry.waitForItem('span', (payload) => JSON.stringify(payload).includes('/api/incident/crash'));
    for (const envelope of sentry.envelopes) {
      expect(envelope.raw).not.toContain(CANARY);
      expect(envelope.raw).not.toContain('203.0.113.77');
      expect(envelope.raw).not.toContain('retrieval_id');
      expect(envelope.raw).not.toMatch(/"(ip_address|cookies|headers|query_string)"/);
      expect(envelope.raw).not.toContain('{{auto}}');
    }
  });
});

describe('the error-report tunnel', () => {
  let sentry: SentryServer;
  let tunnel: Awaited<ReturnType<typeof listen>>;

  const envelope = (dsn: string, text = 'an error of the page') =>
    `${JSON.stringify({ dsn, sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify({ message: text })}\n`;
  const send = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${tunnel.url}${ERROR_REPORT_TUNNEL_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', ...headers },
      body,
    });

  beforeAll(async () => {
    sentry = await startSentryServer();
    tunnel = await listen(
      createHttpApp({
        logger: captureLogger().logger,
        services: [],
        errorReportTunnel: errorReportTunnel({
          dsn: sentry.dsn(7),
          logger: captureLogger().logger,
          maxBody: '2kb',
          perClientPerMinute: 5,
        }),
      }),
    );
  });

  afterAll(async () => {
    await tunnel.close();
    await sentry.close();
  });

  it('when envelopes arrive, then only those of the configured DSN are forwarded to its project, without the client address or headers; too large is 413, too many is 429', async () => {
    const forwarded = await send(envelope(sentry.dsn(7)), {
      'X-Forwarded-For': '203.0.113.9',
      Cookie: `session=${CANARY}`,
      Authorization: `Bearer ${CANARY}`,
    });
    expect(forwarded.status).toBe(200);
    expect(sentry.envelopes).toHaveLength(1);
    const [received] = sentry.envelopes;
    expect(received!.projectId).toBe('7');
    expect(received!.query.get('sentry_key')).toBe('publickey');
    expect(received!.items[0]!.payload).toEqual({ message: 'an error of the page' });
    expect(JSON.stringify(received!.headers)).not.toMatch(/203\.0\.113\.9|canary/);

    // Another project of the same server, another server: no open relay.
    expect((await send(envelope(sentry.dsn(8)))).status).toBe(403);
    expect((await send(envelope('https://publickey@errors.example.com/7'))).status).toBe(403);
    expect((await send('not an envelope')).status).toBe(400);
    expect(sentry.envelopes).toHaveLength(1);

    expect((await send(envelope(sentry.dsn(7), 'x'.repeat(4096)))).status).toBe(413);
    expect((await send(envelope(sentry.dsn(7)))).status).toBe(429);
    expect(sentry.envelopes).toHaveLength(1);
  });
});
