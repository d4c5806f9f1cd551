// What the whole platform on one port writes to its log while a discloser (and someone following a reset or SSO
// link) uses it from behind a proxy: never the client's address, its user agent, a referrer or a query string
// (the spec keeps the retrieval_id in GET /api/incident/discloser's query, the reset token and the SSO code in the
// pages' queries). Issue 22 item 2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@whistle/service-kit';
import { createTestDatabase, type TestDatabase } from '@whistle/service-kit/testing';
import { startStandalone, type StandaloneServer } from '../src/server';

// The frontends as `npm test` built them: the discloser's landing page is drawn from the real shell and remote.
const repoRoot = path.resolve(__dirname, '..', '..');

describe('standalone access log', () => {
  let database: TestDatabase;
  let dir: string;
  let platform: StandaloneServer;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'whistle-standalone-log-'));
    const logger = createLogger({
      name: 'whistle',
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    platform = await startStandalone({
      env: {
        DATABASE_URL: database.url,
        DATA_DIR: path.join(dir, 'data'),
        ROOT_DIR: repoRoot,
        PORT: '0',
        LOG_LEVEL: 'debug',
        // Behind one proxy: the services take the client's address from X-Forwarded-For (rate limits).
        TRUST_PROXY: '1',
      },
      logger,
    });
  }, 120_000);

  afterAll(async () => {
    await platform?.shutdown('test');
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when a discloser and a staff member reach every discloser path and token page with a query, X-Forwarded-For and a User-Agent, then no log line holds any of them', async () => {
    const client = {
      'user-agent': 'DiscloserBrowser/7.3 (unique-fingerprint)',
      'x-forwarded-for': '203.0.113.77',
      referer: 'https://intranet.example/LEAK-referrer',
    };
    const url = (pathAndQuery: string) => `http://127.0.0.1:${platform.port}${pathAndQuery}`;
    const page = { ...client, accept: 'text/html' };
    const asked: Array<[string, RequestInit]> = [
      ['/disclose/acme?ref=page-LEAK', { headers: page }],
      ['/disclose/acme/review?uniquePassword=code-LEAK', { headers: page }],
      ['/api/account/company/acme?x=company-LEAK', { headers: client }],
      ['/api/account/company/acme/qrcode?x=qrcode-LEAK', { headers: client }],
      ['/api/incident/discloser?url_identifier=acme&retrieval_id=retrieval-LEAK', { headers: client }],
      ['/locales/en/common.json?v=locale-LEAK', { headers: client }],
      ['/locales/fr/disclose.json?v=locale-LEAK', { headers: client }],
      ['/main.js?static-LEAK', { headers: client }],
      ['/remotes/mfe-disclose/remoteEntry.js?static-LEAK', { headers: client }],
      ['/company/password/change?token=reset-LEAK', { headers: page }],
      ['/company/login/sso?code=sso-LEAK', { headers: page }],
      [
        '/api/account/company/sso/token?x=exchange-LEAK',
        {
          method: 'POST',
          headers: { ...client, 'content-type': 'application/json' },
          body: JSON.stringify({ code: 'sso-body-LEAK' }),
        },
      ],
    ];
    const statuses: Record<string, number> = {};
    for (const [pathAndQuery, init] of asked)
      statuses[pathAndQuery.split('?')[0]] = (await fetch(url(pathAndQuery), init)).status;
    // Pages and files are served; the calls are answered (refused, mostly), none with a 5xx.
    expect(statuses).toMatchObject({
      '/disclose/acme': 200,
      '/main.js': 200,
      '/locales/en/common.json': 200,
      '/locales/fr/disclose.json': 200,
      '/remotes/mfe-disclose/remoteEntry.js': 200,
      '/company/password/change': 200,
    });
    expect(Object.values(statuses).filter((status) => status >= 500)).toEqual([]);

    // The services' request lines came (the check below is not vacuous): method, route template, status, duration.
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestLines = entries.filter((entry) => entry.msg === 'request');
    expect(requestLines.map((entry) => entry.route)).toEqual(
      expect.arrayContaining([
        '/api/account/company/:url_identifier',
        '/api/incident/discloser',
        '/api/account/company/sso/token',
      ]),
    );
    const written = lines.join('');
    for (const secret of ['LEAK', 'DiscloserBrowser', 'fingerprint', '203.0.113.77', 'intranet'])
      expect({ secret, found: written.includes(secret) }).toEqual({ secret, found: false });
  });
});
