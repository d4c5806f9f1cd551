// The standalone server's static files, on the real build output of the frontends (npm test builds first):
// every text file is there as Brotli and gzip too, each served by Accept-Encoding, decompressing to the file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { localeNamespaceOwner, prefixesOf, workloads, type WorkloadName } from '@whistle/contracts';
import { frontendDist, frontendRouter } from '../src/frontends';

const rootDir = path.resolve(__dirname, '..', '..');
const frontends = (Object.keys(workloads) as WorkloadName[]).filter((name) => workloads[name].kind === 'frontend');
const TEXT_FILE = /\.(js|css|html|json|svg)$/;
const HASHED_FILE = /\.[0-9a-f]{8}\.[a-z]+$/;
const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** Text files of a frontend's build, as [URL path, file on disk], with the URL the platform serves it at. */
function textFiles(workload: WorkloadName): Array<[string, string]> {
  const dist = frontendDist(rootDir, workload);
  const prefix = workload === 'shell' ? '' : prefixesOf(workload)[0];
  return listFiles(dist)
    .filter((file) => TEXT_FILE.test(file))
    .map((file) => [`${prefix}/${path.relative(dist, file).split(path.sep).join('/')}`, file]);
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
/**
 * GET without decoding (fetch would decompress and drop Content-Encoding), each on its own connection: Node's
 * default agent reuses idle sockets, and one the server closes at its keep-alive timeout while a slow check of
 * the previous body runs comes back as ECONNRESET (seen on a loaded CI machine).
 */
function get(urlPath: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const decode: Record<string, (body: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (body) => body,
};

/** A response of `file` in `encoding`: headers right, and the body is exactly the file once decoded. */
function expectVariant(response: RawResponse, file: string, encoding: 'br' | 'gzip' | 'identity') {
  expect(response.status).toBe(200);
  expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
  if (existsSync(`${file}.br`) || existsSync(`${file}.gz`)) expect(response.headers.vary).toMatch(/accept-encoding/i);
  // Charset names are case-insensitive (RFC 9110 §8.3.2).
  expect(response.headers['content-type']?.toLowerCase()).toBe(expectedType(file));
  expect(Number(response.headers['content-length'])).toBe(response.body.length);
  expect(decode[encoding](response.body).equals(readFileSync(file))).toBe(true);
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const expectedType = (file: string) => TYPES[path.extname(file)];

beforeAll(async () => {
  for (const workload of frontends) {
    if (!existsSync(path.join(frontendDist(rootDir, workload), workload === 'shell' ? 'index.html' : 'remoteEntry.js')))
      throw new Error(`${workload} is not built: run npx lerna run build first`);
  }
  server = express().use(frontendRouter(rootDir)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe.each(frontends)('build of %s', (workload) => {
  const files = textFiles(workload);

  it('when built, then every text file has a Brotli and a gzip sibling, unless that encoding would not be smaller', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const [, file] of files) {
      const size = statSync(file).size;
      const content = readFileSync(file);
      // As tools/webpack decides (minRatio 1): kept when not larger than the file. Its gzip is Zopfli's, too slow to
      // redo for every file here: a .gz must not be larger than the file, and one left out must be one that even
      // zlib's level 9 (never smaller than Zopfli's) cannot make smaller.
      const gz = existsSync(`${file}.gz`)
        ? statSync(`${file}.gz`).size <= size
        : gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length > size;
      expect([file, existsSync(`${file}.br`), gz]).toEqual([file, brotliCompressSync(content).length <= size, true]);
    }
    // Only the tiniest files (a few dozen bytes) go without, gzip's frame alone being 18 bytes.
    expect(files.filter(([, file]) => existsSync(`${file}.gz`)).length).toBeGreaterThan(files.length * 0.9);
  });

  it('when each text file is asked with br, gzip or neither, then that encoding (when built) comes back and decodes to the file', async () => {
    const variant = (file: string, encoding: 'br' | 'gzip') =>
      existsSync(`${file}.${encoding === 'br' ? 'br' : 'gz'}`) ? encoding : 'identity';
    for (const [urlPath, file] of files) {
      expectVariant(await get(urlPath, { 'accept-encoding': CHROMIUM_ACCEPT_ENCODING }), file, variant(file, 'br'));
      expectVariant(await get(urlPath, { 'accept-encoding': 'gzip, deflate' }), file, variant(file, 'gzip'));
      expectVariant(await get(urlPath), file, 'identity');
    }
  });

  it("when built, then zod's error messages are there in English only (tools/webpack/zod-locales.js)", () => {
    const scripts = files.filter(([, file]) => file.endsWith('.js'));
    const text = scripts.map(([, file]) => readFileSync(file, 'utf8')).join('\n');
    // zod's German and French "invalid input", from its locales: 180 KB of each staff frontend's bundle before.
    expect([text.includes('Ungültige Eingabe'), text.includes('Entrée invalide')]).toEqual([false, false]);
  });

  it('when a file is asked, then hashed files are immutable and the others revalidate', async () => {
    for (const [urlPath] of files) {
      const { headers } = await get(urlPath, { 'accept-encoding': CHROMIUM_ACCEPT_ENCODING });
      const hashed = HASHED_FILE.test(urlPath);
      expect([urlPath, headers['cache-control']]).toEqual([
        urlPath,
        hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      ]);
    }
  });
});

describe('entry files', () => {
  const shellDist = frontendDist(rootDir, 'shell');
  const disclose = frontendDist(rootDir, 'mfe-disclose');
  const entries: Array<[string, string]> = [
    // The built page as it is (what pages add to it: landing-page.test.ts).
    ['/index.html', path.join(shellDist, 'index.html')],
    ['/main.js', path.join(shellDist, 'main.js')],
    ['/remotes.json', path.join(shellDist, 'remotes.json')],
    ['/remotes/mfe-disclose/remoteEntry.js', path.join(disclose, 'remoteEntry.js')],
    ['/remotes/mfe-disclose/mf-manifest.json', path.join(disclose, 'mf-manifest.json')],
    ['/locales/fr/disclose.json', path.join(disclose, 'locales/fr/disclose.json')],
    ['/locales/en/common.json', path.join(shellDist, 'locales/en/common.json')],
  ];

  it.each(entries)(
    'when %s is asked again with its ETag, then each encoding answers 304 to its own ETag only',
    async (urlPath, file) => {
      const etags = new Set<string>();
      for (const [encoding, acceptEncoding] of [
        ['br', CHROMIUM_ACCEPT_ENCODING],
        ['gzip', 'gzip'],
        ['identity', 'identity'],
      ] as const) {
        const first = await get(urlPath, { 'accept-encoding': acceptEncoding, accept: 'text/html,*/*' });
        expectVariant(first, file, encoding);
        expect(first.headers['cache-control']).toBe('no-cache');
        const etag = first.headers.etag!;
        expect(etag).toBeTruthy();
        etags.add(etag);
        const again = await get(urlPath, {
          'accept-encoding': acceptEncoding,
          accept: 'text/html,*/*',
          'if-none-match': etag,
        });
        expect(again.status).toBe(304);
        expect(again.body).toHaveLength(0);
      }
      // A cache holding the gzip variant must not be told it is the Brotli one.
      expect(etags.size).toBe(3);
    },
  );

  it('when the client refuses Brotli by quality, then gzip comes back; when it refuses both, the file itself', async () => {
    const file = path.join(shellDist, 'main.js');
    expectVariant(await get('/main.js', { 'accept-encoding': 'br;q=0, gzip' }), file, 'gzip');
    expectVariant(await get('/main.js', { 'accept-encoding': 'br;q=0, gzip;q=0' }), file, 'identity');
  });

  it('when a locale namespace is asked of its owner, then it comes from that frontend, compressed', async () => {
    for (const [namespace, language] of [
      ['disclose', 'en'],
      ['shell', 'fr'],
    ]) {
      const owner = localeNamespaceOwner(namespace)!;
      const file = path.join(frontendDist(rootDir, owner), 'locales', language, `${namespace}.json`);
      expectVariant(
        await get(`/locales/${language}/${namespace}.json`, { 'accept-encoding': CHROMIUM_ACCEPT_ENCODING }),
        file,
        'br',
      );
    }
    expect((await get('/locales/en/nope.json')).status).toBe(404);
  });
});

describe('the run-time manifest with error reporting', () => {
  it('when the browser has a DSN, then /remotes.json is the built one with its errorReporting entry, revalidated on every use', async () => {
    const errorReporting = { dsn: 'https://key@errors.example.com/2', tracesSampleRate: 1, environment: 'test' };
    const withReporting = express().use(frontendRouter(rootDir, { errorReporting })).listen(0, '127.0.0.1');
    await new Promise((resolve) => withReporting.once('listening', resolve));
    try {
      const { port } = withReporting.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/remotes.json`);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const built = JSON.parse(readFileSync(path.join(frontendDist(rootDir, 'shell'), 'remotes.json'), 'utf8'));
      expect(await response.json()).toEqual({ ...built, errorReporting });
    } finally {
      await new Promise((resolve) => withReporting.close(resolve));
    }
  });
});
