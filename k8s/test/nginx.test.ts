// Runs the frontends' real nginx configs (templates rendered like the image's entrypoint does) in one nginx on
// loopback, with small stand-in dist folders, and checks what a browser would get. Needs an nginx binary.
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { freePort } from '@whistle/test-support/free-port';
import { readRoutingTable, repoRoot } from './support';

const table = readRoutingTable();
const frontends = Object.keys(table.workloads).filter((w) => table.workloads[w].kind === 'frontend');
const remotes = frontends.filter((w) => w !== 'shell');
const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((p) => existsSync(p));
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
/**
 * The shell's staff pages: the SSO form's redirect may reach the company's identity provider (any https origin), and
 * script sinks take only what the pages' Trusted Types policies vouch for (images.test.ts reads the same).
 */
const STAFF_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https:; require-trusted-types-for 'script'; trusted-types default whistle-rich-text dompurify ProseMirrorClipboard";

/** Like the nginx image's 20-envsubst-on-templates.sh: replaces ${VAR} for the variables that are set, nothing else. */
function envsubst(template: string, env: Record<string, string>): string {
  return template.replace(/\$\{(\w+)\}/g, (whole, name: string) => env[name] ?? whole);
}

function write(path: string, content: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** A text file of a build, with the .gz and .br siblings tools/webpack makes next to it. */
function writeBuilt(path: string, content: string) {
  write(path, content);
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(`${path}.br`, brotliCompressSync(content));
}

/** Stand-in content that compresses, as real bundles do. */
const bulky = (line: string) => `${line}\n`.repeat(40);

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** GET without decoding (fetch would decompress and drop Content-Encoding). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
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

const HASHED_CHUNK = '470.b8c3e23b.js';
const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** nginx variables that would put the client, its software or the query string into a log line. */
const IDENTIFYING_VARIABLES =
  /\$(remote_addr|remote_port|binary_remote_addr|realip_remote_addr|proxy_add_x_forwarded_for|http_[a-z_]+|request|request_uri|args|arg_[a-z_]+|query_string|is_args|request_body|cookie_[a-z_]+|remote_user)\b/;

describe('frontend nginx templates, read as text', () => {
  it.each(frontends)(
    'when %s logs a request, then its one log format holds time, method, path without query, status and duration, and nothing that identifies the client',
    (workload) => {
      const template = readFileSync(join(repoRoot, workload, 'nginx/default.conf.template'), 'utf8');
      const prefix = workload.replace(/-/g, '_');
      const formats = [...template.matchAll(/^\s*log_format\s+(\S+)\s+(.*);$/gm)].map(([, name, rest]) => ({
        name,
        rest,
      }));
      expect(formats.map((f) => f.name)).toEqual([`${prefix}_anonymous`]);
      expect(formats[0].rest).toBe(
        `escape=json '{"time":"$time_iso8601","method":"$request_method","path":"$${prefix}_log_path","status":$status,"duration_s":$request_time}'`,
      );
      // The path is the request's own, cut at the first "?".
      expect(template).toContain(`map $request_uri $${prefix}_log_path { "~^([^?]*)" $1; }`);
      // Every access_log of the file uses that format (or is off); none is left to the image's "main" format.
      const accessLogs = [...template.matchAll(/\baccess_log\s+([^;]+);/g)].map(([, args]) => args.trim());
      expect(accessLogs.length).toBeGreaterThan(0);
      for (const args of accessLogs)
        expect([args]).toEqual([
          expect.stringMatching(new RegExp(`^(off|/var/log/nginx/access\\.log ${prefix}_anonymous)$`)),
        ]);
      // The server sets its logs itself, before any location: the image's http-level access log (format "main")
      // would be inherited otherwise; nginx writes the client address and the full request line into error lines,
      // so only critical ones are kept.
      const serverLevel = template.split('\nserver {\n')[1].split(/\n\s*location /)[0];
      expect(serverLevel).toContain(`\n    access_log /var/log/nginx/access.log ${prefix}_anonymous;\n`);
      expect(serverLevel).toContain('\n    error_log /var/log/nginx/error.log crit;\n');
      for (const { rest } of formats) expect(rest).not.toMatch(IDENTIFYING_VARIABLES);
    },
  );
});

/** The http-level access log of the nginx images' own nginx.conf: what a server inherits unless it sets its own. */
const imageAccessLog = (logDir: string) =>
  `  log_format main '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent ` +
  `"$http_referer" "$http_user_agent" "$http_x_forwarded_for"';\n  access_log ${logDir}/access.log main;\n`;

const describeWithNginx = nginxBinary ? describe : describe.skip;
if (!nginxBinary) {
  console.warn('k8s/test: no nginx binary (apt-get install nginx): the frontend nginx configs are NOT run in this run');
  describe('frontend nginx configs', () => {
    it.skip('SKIPPED: no nginx binary (apt-get install nginx), so the frontend configs are only checked as text here', () =>
      undefined);
  });
}

describeWithNginx('frontend nginx configs, served by a real nginx on loopback', () => {
  const ports: Record<string, number> = {};
  let dir: string;
  let nginx: ChildProcess;
  const url = (workload: string, path: string) => `http://127.0.0.1:${ports[workload]}${path}`;
  const remotesJson = JSON.stringify({ mfe_disclose: '/remotes/mfe-disclose/mf-manifest.json' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'whistle-nginx-'));
    chmodSync(dir, 0o755); // nginx workers may run as another user
    for (const workload of frontends) ports[workload] = await freePort();
    const env: Record<string, string> = {};
    for (const remote of remotes)
      env[`${remote.toUpperCase().replace(/-/g, '_')}_UPSTREAM`] = `127.0.0.1:${ports[remote]}`;

    const servers: string[] = [];
    for (const workload of frontends) {
      const html = join(dir, workload, 'html');
      const snippets = join(dir, workload, 'whistle');
      for (const file of ['security-headers.conf', 'staff-security-headers.conf', 'proxy.conf']) {
        const source = join(repoRoot, workload, 'nginx', file);
        if (existsSync(source)) write(join(snippets, file), readFileSync(source, 'utf8'));
      }
      // Paths of the image, mapped to the test folder.
      const template = readFileSync(join(repoRoot, workload, 'nginx/default.conf.template'), 'utf8')
        .replaceAll('/usr/share/nginx/html', html)
        .replaceAll('/etc/nginx/whistle/', `${snippets}/`)
        .replaceAll('/etc/whistle/remotes.json', join(dir, 'remotes.json'))
        .replaceAll('/var/log/nginx/', `${dir}/logs/`);
      const rendered = envsubst(template, { ...env, NGINX_PORT: `127.0.0.1:${ports[workload]}` });
      expect(rendered).not.toMatch(/\$\{\w+\}/);
      servers.push(rendered);
      if (workload === 'shell') {
        writeBuilt(join(html, 'index.html'), `<!doctype html><title>shell</title>\n${bulky('<div></div>')}`);
        writeBuilt(join(html, 'main.js'), bulky('console.log("shell main")'));
        writeBuilt(join(html, HASHED_CHUNK), bulky('console.log("shell chunk")'));
        writeBuilt(join(html, 'locales/en/common.json'), '{"from":"shell common"}');
        writeBuilt(join(html, 'locales/en/shell.json'), '{"from":"shell shell"}');
      } else {
        const base = join(html, 'remotes', workload);
        writeBuilt(join(base, 'mf-manifest.json'), `{"name":"${workload}"}`);
        writeBuilt(join(base, 'remoteEntry.js'), bulky(`console.log("${workload} entry")`));
        writeBuilt(join(base, HASHED_CHUNK), bulky(`console.log("${workload} chunk")`));
        for (const [ns, owner] of Object.entries(table.localeNamespaces)) {
          if (owner === workload) writeBuilt(join(base, `locales/fr/${ns}.json`), `{"from":"${workload} ${ns}"}`);
        }
      }
    }
    write(join(dir, 'remotes.json'), remotesJson);
    mkdirSync(join(dir, 'logs'));
    write(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents {}\nhttp {\n  include /etc/nginx/mime.types;\n` +
        `  default_type application/octet-stream;\n${imageAccessLog(join(dir, 'logs'))}  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n` +
        `  fastcgi_temp_path ${dir}/fastcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n` +
        servers.join('\n') +
        '\n}\n',
    );
    const check = spawnSync(nginxBinary!, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx -t refused the configs:\n${check.stderr}`);
    nginx = spawn(nginxBinary!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const ok = await fetch(url('shell', '/healthz')).then(
        () => true,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`nginx did not start: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
  });

  afterAll(() => {
    if (nginx?.pid) nginx.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const expectSecurityHeaders = (response: Response) => {
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  };

  it('when a staff route is asked of the shell, then index.html comes back with the staff policy (Trusted Types) and no caching', async () => {
    const response = await fetch(url('shell', '/company/incidents/42'));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>shell</title>');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toBe(STAFF_CSP);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('when a discloser page is asked of the shell, then index.html comes back with the strict headers: forms post to Whistle only', async () => {
    for (const path of ['/disclose/acme-1234', '/disclose/acme-1234/status']) {
      const response = await fetch(url('shell', path));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>shell</title>');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expectSecurityHeaders(response);
    }
  });

  it('when /remotes.json is asked, then the mounted per-environment file is served as JSON', async () => {
    const response = await fetch(url('shell', '/remotes.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe(remotesJson);
    expectSecurityHeaders(response);
  });

  it.each(Object.entries(table.localeNamespaces).filter(([ns]) => ns !== '$comment'))(
    'when /locales/{lng}/%s.json is asked of the shell, then %s answers it',
    async (ns, owner) => {
      const lng = owner === 'shell' ? 'en' : 'fr';
      const response = await fetch(url('shell', `/locales/${lng}/${ns}.json`));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ from: `${owner} ${ns}` });
      expectSecurityHeaders(response); // once each: the remote's copies are hidden
    },
  );

  it('when an unknown locale namespace is asked, then the shell answers 404 rather than index.html', async () => {
    expect((await fetch(url('shell', '/locales/en/nope.json'))).status).toBe(404);
  });

  it.each(remotes)('when %s is asked for its files, then it serves them under /remotes/<dir>/ only', async (remote) => {
    const manifest = await fetch(url(remote, `/remotes/${remote}/mf-manifest.json`));
    expect(manifest.status).toBe(200);
    expect(await manifest.json()).toEqual({ name: remote });
    expectSecurityHeaders(manifest);
    expect((await fetch(url(remote, '/index.html'))).status).toBe(404);
  });

  /** [server, path asked, file on the server's disk it must be] */
  const entryFiles = (): Array<[string, string, string]> => [
    ['shell', '/company/incidents/42', 'shell/html/index.html'],
    ['shell', '/main.js', 'shell/html/main.js'],
    ['shell', '/locales/en/common.json', 'shell/html/locales/en/common.json'],
    ['shell', '/locales/fr/disclose.json', 'mfe-disclose/html/remotes/mfe-disclose/locales/fr/disclose.json'],
    ...remotes.flatMap((remote): Array<[string, string, string]> =>
      ['remoteEntry.js', 'mf-manifest.json'].map((file) => [
        remote,
        `/remotes/${remote}/${file}`,
        `${remote}/html/remotes/${remote}/${file}`,
      ]),
    ),
  ];

  const expectVariant = (response: RawResponse, file: string, encoding: 'gzip' | 'identity') => {
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : undefined);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    const type = { js: /^(text|application)\/javascript/, json: /^application\/json/, html: /^text\/html/ };
    expect(response.headers['content-type']).toMatch(type[file.split('.').pop() as keyof typeof type]);
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    const body = encoding === 'gzip' ? gunzipSync(response.body) : response.body;
    expect(body.equals(readFileSync(join(dir, file)))).toBe(true);
  };

  it('when entry files are asked with and without gzip, then each variant decodes to the file and revalidates with its own ETag', async () => {
    for (const [workload, path, file] of entryFiles()) {
      const etags = new Set<string>();
      for (const [encoding, acceptEncoding] of [
        ['gzip', CHROMIUM_ACCEPT_ENCODING],
        ['identity', 'identity'],
      ] as const) {
        const first = await rawGet(url(workload, path), { 'accept-encoding': acceptEncoding });
        expectVariant(first, file, encoding);
        expect([path, first.headers['cache-control']]).toEqual([path, 'no-cache']);
        etags.add(first.headers.etag!);
        const again = await rawGet(url(workload, path), {
          'accept-encoding': acceptEncoding,
          'if-none-match': first.headers.etag!,
        });
        expect([path, again.status, again.body.length]).toEqual([path, 304, 0]);
      }
      expect([path, etags.size]).toEqual([path, 2]);
    }
  });

  it.each(frontends)(
    'when a hashed chunk of %s is asked, then it comes gzipped, immutable, with the security headers',
    async (workload) => {
      const path = workload === 'shell' ? `/${HASHED_CHUNK}` : `/remotes/${workload}/${HASHED_CHUNK}`;
      const response = await rawGet(url(workload, path), { 'accept-encoding': CHROMIUM_ACCEPT_ENCODING });
      expectVariant(response, `${workload}/html${path}`, 'gzip');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-security-policy']).toBe(CSP);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const missing = await fetch(url(workload, path.replace('470.', '471.')));
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBeNull();
    },
  );

  it('when a discloser asks for pages, translations and files with a query, a forwarded address and a user agent, then the access log has none of them', async () => {
    const logFile = join(dir, 'logs/access.log');
    const before = existsSync(logFile) ? readFileSync(logFile, 'utf8').length : 0;
    const client = {
      'user-agent': 'DiscloserBrowser/7.3 (unique-fingerprint)',
      'x-forwarded-for': '203.0.113.77',
      'x-real-ip': '203.0.113.77',
      referer: 'https://intranet.example/secret-referrer',
    };
    const asked: Array<[string, string]> = [
      ['shell', '/disclose/acme?retrieval_id=retrieval-secret-1'],
      ['shell', '/disclose/acme/review?uniquePassword=code-secret-2'],
      ['shell', '/company/password/change?token=reset-secret-3'],
      ['shell', '/company/login/sso?code=sso-secret-4'],
      ['shell', '/locales/fr/disclose.json?v=query-secret-5'],
      ['shell', '/main.js?query-secret-6'],
      ...remotes.map((remote): [string, string] => [remote, `/remotes/${remote}/remoteEntry.js?query-secret-7`]),
    ];
    for (const [workload, path] of asked) expect((await rawGet(url(workload, path), client)).status).toBe(200);
    // nginx writes a line once the answer is sent, and the shell's proxied translation adds the remote's own
    // line: wait until every path asked has its line, not for a count of lines.
    const pathsAsked = asked.map(([, path]) => path.split('?')[0]);
    const logged = (found: string[]) => pathsAsked.every((path) => found.some((line) => line.includes(`"${path}"`)));
    let lines: string[] = [];
    for (let attempt = 0; attempt < 100 && !logged(lines); attempt += 1) {
      lines = readFileSync(logFile, 'utf8').slice(before).split('\n').filter(Boolean);
      if (!logged(lines)) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const written = lines.join('\n');
    for (const secret of ['secret', 'DiscloserBrowser', 'fingerprint', '203.0.113.77', '127.0.0.1', 'intranet'])
      expect({ secret, found: written.includes(secret) }).toEqual({ secret, found: false });
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual(
      expect.arrayContaining(pathsAsked.map((path) => ['GET', path, 200])),
    );
    for (const entry of entries)
      expect(Object.keys(entry).sort()).toEqual(['duration_s', 'method', 'path', 'status', 'time']);
  });

  it.each(frontends)('when the kubelet probes %s, then /healthz and /readyz answer 200', async (workload) => {
    expect((await fetch(url(workload, '/healthz'))).status).toBe(200);
    expect((await fetch(url(workload, '/readyz'))).status).toBe(200);
  });
});
