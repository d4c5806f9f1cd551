#!/usr/bin/env node
// Renders k8s/base/ingress.yaml from THE routing table (packages/contracts/src/routing/routes.json), so the cluster
// routes exactly like the standalone server. Run after changing the table:
//   node k8s/scripts/generate-ingress.mjs           (writes k8s/base/ingress.yaml)
//   node k8s/scripts/generate-ingress.mjs --check   (exit 1 when the committed file is out of date)
//   node k8s/scripts/generate-ingress.mjs --stdout
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tablePath = 'packages/contracts/src/routing/routes.json';
const outputPath = 'k8s/base/ingress.yaml';

/** Workload whose routes get their own Ingress with a larger body limit: encrypted uploads (application/vnd.whistle.incident-file-upload). */
export const UPLOAD_WORKLOAD = 'file';
/** Body limits (ingress-nginx proxy-body-size): JSON bodies are capped at 1 MB by the services (BODY_LIMIT); an upload
 * body is at most ~33.4 MB (base64 of a 25 MB file's ciphertext plus metadata, services/file MAX_UPLOAD_BODY_BYTES). */
export const PROXY_BODY_SIZE = '2m';
export const UPLOAD_PROXY_BODY_SIZE = '36m';

/**
 * Two Ingresses on one host, merged by ingress-nginx into one server (longest prefix first across both): "whistle"
 * for every route but the upload workload's, "whistle-file" for those, so only they accept large bodies.
 */
export function renderIngress(table) {
  const pathsOf = (routes) =>
    routes.map(({ prefix, workload }) => {
      const target = table.workloads[workload];
      if (!target) throw new Error(`route ${prefix}: unknown workload ${workload}`);
      return {
        path: prefix,
        pathType: 'Prefix',
        backend: { service: { name: workload, port: { number: target.port } } },
      };
    });
  const ingress = (name, bodySize, routes) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name,
      annotations: {
        // Response headers from the ConfigMap whistle-response-headers (overlays point it at their namespace).
        'nginx.ingress.kubernetes.io/custom-headers': 'whistle/whistle-response-headers',
        'nginx.ingress.kubernetes.io/proxy-body-size': bodySize,
        // ingress-nginx's log line holds the client address, user agent and full request line (a discloser's
        // retrieval_id rides in a query string the spec fixes): none for this host. Services and frontends log
        // each request without them (docs/operations.md, Access logs).
        'nginx.ingress.kubernetes.io/enable-access-log': 'false',
      },
    },
    // Longest prefix wins: ingress-nginx orders Prefix paths by length, like the standalone router.
    spec: { ingressClassName: 'nginx', rules: [{ http: { paths: pathsOf(routes) } }] },
  });
  const documents = [
    ingress(
      'whistle',
      PROXY_BODY_SIZE,
      table.routes.filter((r) => r.workload !== UPLOAD_WORKLOAD),
    ),
  ];
  const uploads = table.routes.filter((r) => r.workload === UPLOAD_WORKLOAD);
  if (uploads.length > 0) documents.push(ingress(`whistle-${UPLOAD_WORKLOAD}`, UPLOAD_PROXY_BODY_SIZE, uploads));
  return `# generated from ${tablePath} by k8s/scripts/generate-ingress.mjs — do not edit\n${documents.map((d) => stringify(d)).join('---\n')}`;
}

function main(args) {
  const table = JSON.parse(readFileSync(repoRoot + tablePath, 'utf8'));
  const rendered = renderIngress(table);
  if (args.includes('--stdout')) {
    process.stdout.write(rendered);
  } else if (args.includes('--check')) {
    const committed = readFileSync(repoRoot + outputPath, 'utf8');
    if (committed !== rendered) {
      console.error(`${outputPath} is out of date: run node k8s/scripts/generate-ingress.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(repoRoot + outputPath, rendered);
    console.log(`wrote ${outputPath}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
