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
 * body is at most ~33.6 MB (base64 of a 25 MB file's ciphertext plus metadata, services/file MAX_UPLOAD_BODY_BYTES). */
export const PROXY_BODY_SIZE = '2m';
export const UPLOAD_PROXY_BODY_SIZE = '36m';
/**
 * Timeouts (seconds), as the Helm chart sets them, matched to the services' (packages/service-kit/src/http/
 * stalled-body.ts, the S3 client): an upstream may take up to 60 s without a byte from S3 before it answers 503
 * itself, so the controller waits longer than that for it, and far less than its 60 s default to connect to a pod.
 */
export const PROXY_TIMEOUTS = {
  'nginx.ingress.kubernetes.io/proxy-connect-timeout': '5',
  'nginx.ingress.kubernetes.io/proxy-send-timeout': '75',
  'nginx.ingress.kubernetes.io/proxy-read-timeout': '75',
};
/**
 * Uploads reach the file service as the client sends them, not buffered by the controller: its own limits then apply
 * to the client's real pace (408 after 30 s without a byte, 10 minutes for the whole request, the caps on uploads
 * under way per discloser and per address), which a buffering proxy would hide.
 */
export const UPLOAD_PROXYING = { 'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off' };

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
  const ingress = (name, bodySize, routes, proxying = {}) => ({
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
        ...PROXY_TIMEOUTS,
        ...proxying,
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
  if (uploads.length > 0)
    documents.push(ingress(`whistle-${UPLOAD_WORKLOAD}`, UPLOAD_PROXY_BODY_SIZE, uploads, UPLOAD_PROXYING));
  // YAML 1.1 quoting: kubectl and kustomize read YAML 1.1, where a bare `off` is a boolean, not the string an
  // annotation must be.
  return `# generated from ${tablePath} by k8s/scripts/generate-ingress.mjs — do not edit\n${documents.map((d) => stringify(d, { version: '1.1' })).join('---\n')}`;
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
