import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRoutingTable, repoRoot } from './support';

const table = readRoutingTable();
const folderOf = (workload: string) =>
  table.workloads[workload].kind === 'service' ? `services/${workload}` : workload;
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
/**
 * The shell's staff pages: the SSO form's redirect may reach the company's identity provider (any https origin), and
 * script sinks take only what the pages' Trusted Types policies vouch for (the standalone server sends the same).
 */
const STAFF_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https:; require-trusted-types-for 'script'; trusted-types default whistle-rich-text dompurify ProseMirrorClipboard";

/** The shared packages an image may need (test-support is for tests only, never built into one). */
const imagePackages = [
  'packages/api-client',
  'packages/contracts',
  'packages/crypto',
  'packages/mailer',
  'packages/object-store',
  'packages/service-kit',
  'packages/tokens',
  'packages/ui',
];

/** @whistle/* workspaces a package needs, itself first, then its dependencies transitively (with devDependencies: to build). */
function workspaceClosure(folder: string, { dev }: { dev: boolean }): string[] {
  const byName = new Map<string, string>();
  for (const dir of imagePackages) {
    if (existsSync(join(repoRoot, dir, 'package.json'))) byName.set(JSON.parse(read(`${dir}/package.json`)).name, dir);
  }
  const seen: string[] = [];
  const folders: string[] = [];
  const visit = (dir: string) => {
    const pkg = JSON.parse(read(`${dir}/package.json`));
    if (seen.includes(pkg.name)) return;
    seen.push(pkg.name);
    folders.push(dir);
    for (const dep of Object.keys({ ...pkg.dependencies, ...(dev ? pkg.devDependencies : {}) })) {
      if (dep.startsWith('@whistle/') && byName.has(dep)) visit(byName.get(dep)!);
    }
  };
  visit(folder);
  return seen.map((name, i) => `${name} ${folders[i]}`);
}

/**
 * Stages of a Dockerfile: name, base image (a global `ARG` resolved to its default, the registry build) and
 * instruction lines (continuations joined).
 */
function stages(dockerfile: string): { name?: string; from: string; lines: string[] }[] {
  const lines = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'));
  const args = new Map<string, string>();
  const result: { name?: string; from: string; lines: string[] }[] = [];
  for (const line of lines) {
    if (line.startsWith('FROM ')) {
      const [, from, as, name] = line.split(/\s+/);
      const base = from.replace(/^\$\{(\w+)\}$/, (_, arg: string) => args.get(arg) ?? '');
      result.push({ name: as === 'AS' ? name : undefined, from: base, lines: [] });
    } else if (result.length === 0 && line.startsWith('ARG ')) {
      for (const [, arg, value] of line.matchAll(/(\w+)=(\S+)/g)) args.set(arg, value);
    } else result.at(-1)?.lines.push(line);
  }
  return result;
}

describe.each(Object.keys(table.workloads))('Dockerfile of %s', (workload) => {
  const folder = folderOf(workload);
  const { kind, port } = table.workloads[workload];
  const packageName = JSON.parse(read(`${folder}/package.json`)).name;
  const dockerfile = read(`${folder}/Dockerfile`);
  const all = stages(dockerfile);
  const build = all.find((stage) => stage.name === 'build')!;
  const rest = all.slice(all.indexOf(build) + 1);
  const runtime = rest.at(-1)!;

  it('when read, then it builds on node:24-bookworm-slim with npm ci filtered to the workspaces it needs and lerna scoped to it', () => {
    expect(build.from).toMatch(/^node:24-bookworm-slim\b/);
    const ci = build.lines.find((l) => l.includes('npm ci'))!;
    for (const entry of workspaceClosure(folder, { dev: true }))
      expect(ci).toContain(`--workspace ${entry.split(' ')[0]}`);
    expect(build.lines.join('\n')).toContain(`npx lerna run build --scope ${packageName} --include-dependencies`);
    expect(dockerfile).toContain(`docker build -f ${folder}/Dockerfile`);
  });

  it('when read, then its base images are build arguments whose defaults are the official images, for `npm run images`', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    if (kind !== 'service') expect(dockerfile).toMatch(/^ARG NGINX_IMAGE=nginxinc\/nginx-unprivileged:\S+$/m);
    const froms = dockerfile.split('\n').filter((line) => line.startsWith('FROM '));
    for (const from of froms) expect(from).toMatch(/^FROM (\$\{(NODE|NGINX)_IMAGE\}|build)( AS [a-z-]+)?$/);
    expect(read('scripts/images/build.sh')).toMatch(new RegExp(`^images=\\([^)]*\\b${workload}\\b`, 'm'));
  });

  it('when read, then the dependencies are installed from the manifests alone, before the sources are copied', () => {
    const manifests = all.find((stage) => stage.name === 'manifests')!;
    expect(manifests.lines.join('\n')).toMatch(/find \. -name package\.json -exec cp --parents/);
    expect(build.lines[2]).toBe('COPY --from=manifests /manifests ./');
    const install = build.lines.findIndex((line) => line.includes('npm ci'));
    const sources = build.lines.indexOf('COPY . .');
    expect(install).toBeGreaterThan(-1);
    expect(sources).toBeGreaterThan(install);
  });

  it('when read, then the runtime image carries the OCI labels', () => {
    const labels = runtime.lines.filter((line) => line.startsWith('LABEL ')).join(' ');
    expect(labels).toContain(`org.opencontainers.image.title="${packageName}"`);
    for (const key of ['version', 'revision', 'created'])
      expect(labels).toContain(`org.opencontainers.image.${key}="\${${key.toUpperCase()}}"`);
  });

  it('when read, then the runtime stage runs as a numeric non-root user and exposes the table port', () => {
    const user = runtime.lines.filter((l) => l.startsWith('USER ')).at(-1);
    expect(user).toMatch(/^USER [1-9]\d*(:[1-9]\d*)?$/);
    expect(runtime.lines.join('\n')).toMatch(new RegExp(`^EXPOSE (${port}|\\$PORT)$`, 'm'));
  });

  if (kind === 'service') {
    it('when read, then its package depends on no other service, not even for tests', () => {
      const pkg = JSON.parse(read(`${folder}/package.json`));
      const others = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((dep) =>
        /^@whistle\/.+-service$/.test(dep),
      );
      expect(others).toEqual([]);
    });

    it('when read, then the runtime image holds production dependencies only and starts dist/main.js on the table port', () => {
      expect(rest.map((s) => s.from)).toContain('build');
      const prodCi = stages(dockerfile)
        .flatMap((s) => s.lines)
        .find((l) => l.includes('--omit=dev'))!;
      expect(prodCi).toMatch(/^RUN (--mount=type=cache,\S+\s+)?npm ci /);
      const needed = workspaceClosure(folder, { dev: false }).map((entry) => entry.split(' '));
      // Exactly those workspaces: an image carries no package (and no dependency of one) its service does not use.
      expect([...prodCi.matchAll(/--workspace (\S+)/g)].map((match) => match[1]).sort()).toEqual(
        needed.map(([name]) => name).sort(),
      );
      const copied = runtime.lines.flatMap(
        (line) => /^COPY --from=prod-deps \/repo\/((?:packages|services)\/\S+) /.exec(line)?.[1] ?? [],
      );
      expect(copied.sort()).toEqual(needed.map(([, dir]) => dir).sort());
      for (const [, dir] of needed) expect(runtime.lines).toContain(`COPY --from=prod-deps /repo/${dir} ./${dir}`);
      // npm ci links every workspace whatever --workspace says: the root keeps only the needed ones, then prunes.
      const prune = all.find((stage) => stage.name === 'prod-modules')!.lines.find((l) => l.includes('npm prune'))!;
      expect(prune).toContain(
        ` ${needed
          .map(([, dir]) => dir)
          .sort()
          .join(' ')}  && npm prune --ignore-scripts --omit=dev`,
      );
      expect(runtime.from).toMatch(/^node:24-bookworm-slim\b/);
      expect(runtime.lines.filter((l) => l.startsWith('COPY')).every((l) => l.includes('--from=prod-deps'))).toBe(true);
      expect(runtime.lines).toContain(`CMD ["node", "${folder}/dist/main.js"]`);
      expect(runtime.lines.join('\n')).toContain(`PORT=${port}`);
    });
  } else {
    const template = read(`${folder}/nginx/default.conf.template`);
    it('when read, then nginx-unprivileged serves the built files with the strict security headers on the table port', () => {
      expect(runtime.from).toMatch(/^nginxinc\/nginx-unprivileged:/);
      expect(runtime.lines).toContain(`ENV NGINX_PORT=${port}`);
      expect(template).toMatch(/listen \$\{NGINX_PORT\};/);
      expect(template).toContain('include /etc/nginx/whistle/security-headers.conf;');
      const headers = read(`${folder}/nginx/security-headers.conf`);
      expect(headers).toContain(`add_header Content-Security-Policy "${CSP}" always;`);
      expect(headers).toContain('add_header Referrer-Policy "no-referrer" always;');
      expect(headers).toContain('add_header X-Content-Type-Options "nosniff" always;');
      // add_header in a location silently drops the server-level headers there, unless it includes them again.
      const [server, ...locations] = template.replace(/^\s*#.*$/gm, '').split(/\n\s*location /);
      expect(server).not.toMatch(/add_header/);
      for (const location of locations.filter((block) => block.includes('add_header')))
        expect(location).toMatch(/include \/etc\/nginx\/whistle\/(staff-)?security-headers\.conf;/);
      expect(template).toMatch(/location = \/healthz/);
      expect(template).toMatch(/location = \/readyz/);
    });

    if (workload === 'shell') {
      it('when read, then the staff pages get their own policy (SSO redirect, Trusted Types) and the discloser pages the strict one', () => {
        const staff = read('shell/nginx/staff-security-headers.conf');
        expect(staff).toContain(`add_header Content-Security-Policy "${STAFF_CSP}" always;`);
        expect(staff).toContain('add_header Referrer-Policy "no-referrer" always;');
        expect(staff).toContain('add_header X-Content-Type-Options "nosniff" always;');
        expect(runtime.lines).toContain(
          'COPY shell/nginx/staff-security-headers.conf /etc/nginx/whistle/staff-security-headers.conf',
        );
        expect(template).toMatch(/location \/ \{[^}]*include \/etc\/nginx\/whistle\/staff-security-headers\.conf;/);
        // The discloser's pages keep the server's strict headers: no add_header of their own.
        expect(template).toMatch(/location \/disclose \{[^}]*try_files \/index\.html =404;[^}]*\}/);
        expect(template.split('location /disclose {')[1].split('}')[0]).not.toMatch(/add_header|include/);
      });

      it('when read, then the shell falls back to index.html, serves /remotes.json from the mounted ConfigMap and sends each locale namespace to its owner', () => {
        expect(template).toMatch(/location \/ \{[^}]*try_files \$uri \/index\.html =404;/);
        expect(template).toMatch(/location = \/remotes\.json \{[^}]*alias \/etc\/whistle\/remotes\.json;/);
        const own = Object.entries(table.localeNamespaces)
          .filter(([ns, owner]) => ns !== '$comment' && owner === 'shell')
          .map(([ns]) => ns);
        expect(template).toContain(`location ~ ^/locales/[A-Za-z-]+/(${own.join('|')})\\.json$`);
        for (const [ns, owner] of Object.entries(table.localeNamespaces)) {
          if (ns === '$comment' || owner === 'shell') continue;
          const upstream = owner.replace(/-/g, '_');
          const block = template.split(`location ~ ^/locales/[A-Za-z-]+/${ns}\\.json$ {`)[1]?.split('}')[0];
          expect({ ns, block: block?.trim().split(/\n\s*/) }).toEqual({
            ns,
            block: [
              `rewrite ^/locales/(.+)$ /remotes/${owner}/locales/$1 break;`,
              `proxy_pass http://${upstream};`,
              'include /etc/nginx/whistle/proxy.conf;',
            ],
          });
          expect(template).toContain(`upstream ${upstream} { server \${${upstream.toUpperCase()}_UPSTREAM}; }`);
          expect(dockerfile).toContain(`${upstream.toUpperCase()}_UPSTREAM=${owner}:${table.workloads[owner].port}`);
        }
      });
    } else {
      it('when read, then the remote is served under /remotes/<dir>/ and nothing else', () => {
        expect(runtime.lines).toContain(
          `COPY --from=build /repo/${folder}/dist /usr/share/nginx/html/remotes/${workload}`,
        );
        expect(template).toContain(`location /remotes/${workload}/ {`);
        expect(template).toMatch(/location \/ \{ return 404; \}/);
      });
    }
  }
});

describe('build context', () => {
  it('when the repository root is the build context, then .dockerignore drops node_modules, dist and secrets but keeps every workspace manifest', () => {
    const ignore = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const pattern of ['**/node_modules', '**/dist', '.git', '**/.env']) expect(ignore).toContain(pattern);
    for (const workspace of JSON.parse(read('package.json')).workspaces as string[]) {
      const top = workspace.replace(/\/\*$/, '');
      if (ignore.includes(top) || ignore.includes(`${top}/*`)) expect(ignore).toContain(`!${top}/package.json`);
    }
  });
});
