import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { platformConfigSchema } from '../../packages/service-kit/src/config/platform-config';
import { auditConfigSchema } from '../../services/audit/src/config';
import { authConfigSchema } from '../../services/auth/src/config';
import { fileConfigSchema } from '../../services/file/src/config';
import { incidentConfigSchema } from '../../services/incident/src/config';
import { notificationConfigSchema } from '../../services/notification/src/config';
import { itChecksTheRelease } from './release-checks';
import {
  expectedSecretEnv,
  imageRepositoryOf,
  K8sObject,
  kustomize,
  productionOverlay,
  readRoutingTable,
  repoRoot,
  schemaErrors,
  unknownFieldErrors,
} from './support';

const overlays = readdirSync(join(repoRoot, 'k8s/overlays'));
const table = readRoutingTable();
const workloads = Object.keys(table.workloads);
const services = workloads.filter((w) => table.workloads[w].kind === 'service');
/** Keys wired before the services read them (optional in the Secret until then). */
const announced = new Set(['TOKEN_PUBLIC_KEY']);
/** Each service's config schema, as the service parses its environment. */
const configSchemas = {
  audit: auditConfigSchema,
  auth: authConfigSchema,
  file: fileConfigSchema,
  incident: incidentConfigSchema,
  notification: notificationConfigSchema,
} as const;
const configOf = (service: string) => configSchemas[service as keyof typeof configSchemas].shape;
/** Keys a service's own schema adds to the platform's. */
const ownKeysOf = (service: string) =>
  Object.keys(configOf(service)).filter((key) => !(key in platformConfigSchema.shape));
/** A key the service does without (optional, or with a default). */
const canBeMissing = (service: string, key: string) =>
  configOf(service)[key as keyof ReturnType<typeof configOf>].safeParse(undefined).success;

describe('secret keys per workload (expectations shared by both deployments)', () => {
  it('when the expectations are listed, then they cover exactly the workloads of the routing table', () => {
    expect(Object.keys(expectedSecretEnv).sort()).toEqual([...workloads].sort());
  });

  it("when the config schemas are listed, then they are those of the routing table's services", () => {
    expect(Object.keys(configSchemas).sort()).toEqual([...services].sort());
  });

  it.each(services)(
    'when %s reads a secret key of its own in its config schema, then the Secret gives it, required unless the schema does without',
    (service) => {
      for (const key of ownKeysOf(service).filter((name) => /_KEY$|_URL$|SECRET/.test(name))) {
        const { required, optional } = expectedSecretEnv[service];
        expect({
          service,
          key,
          required: required.includes(key),
          given: [...required, ...optional].includes(key),
        }).toEqual({
          service,
          key,
          required: !canBeMissing(service, key),
          given: true,
        });
      }
    },
  );

  it.each(services)(
    'when %s gets a secret key, then its config schema (or the platform one) reads it, or it is announced and optional',
    (service) => {
      const reads = new Set(Object.keys(configOf(service)));
      for (const key of expectedSecretEnv[service].required)
        expect({ service, key, read: reads.has(key) }).toEqual({ service, key, read: true });
      for (const key of expectedSecretEnv[service].optional) {
        expect({ service, key, readOrAnnounced: reads.has(key) || announced.has(key) }).toEqual({
          service,
          key,
          readOrAnnounced: true,
        });
      }
    },
  );

  it('when private keys are handed out, then each goes to its one owner only', () => {
    const holders = (key: string) =>
      workloads.filter((w) => [...expectedSecretEnv[w].required, ...expectedSecretEnv[w].optional].includes(key));
    expect(holders('KEY_ENCRYPTION_KEY')).toEqual(['auth']);
    expect(holders('TOKEN_SIGNING_KEY')).toEqual(['auth']);
    expect(holders('DISCLOSER_TOKEN_PRIVATE_KEY')).toEqual(['incident']);
    expect(holders('DISCLOSER_TOKEN_PUBLIC_KEY')).toEqual(['file']);
    expect(holders('TOKEN_PUBLIC_KEY').sort()).toEqual(['audit', 'file', 'incident']);
  });
});

describe('Kubernetes schema validation', () => {
  it('when an object breaks the Kubernetes schema, then the validator reports it', () => {
    const broken: K8sObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'broken' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 'http' }] }] } },
      },
    };
    expect(schemaErrors(broken).join('\n')).toMatch(/containerPort must be integer/);
    expect(schemaErrors({ ...broken, kind: 'Deploymnet' })).toEqual([expect.stringMatching(/unknown kind/)]);
  });

  it('when an object has a field Kubernetes does not know, then the type check reports it', () => {
    const misspelt: K8sObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'misspelt' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: {
          spec: { containers: [{ name: 'c', image: 'i', securityContext: { readOnlyRootFileSystem: true } }] },
        },
      },
    };
    const clean: K8sObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'clean' }, data: { a: 'b' } };
    expect(unknownFieldErrors([clean, misspelt])).toEqual([
      expect.stringMatching(/^Deployment\/misspelt: TS\d+ .*'"?readOnlyRootFileSystem"?' does not exist/),
    ]);
  });
});

/** What each kustomize tree renders: k8s/base (no host, unpinned images: overlays set them) and each overlay. */
const trees: { dir: string; namespace?: string; host?: string; tag?: string; replicas?: Record<string, number> }[] = [
  { dir: 'k8s/base' },
  {
    dir: 'k8s/overlays/staging',
    namespace: 'whistle-staging',
    host: 'whistle.staging.example.com',
    tag: '0.1.0-rc.1',
    replicas: Object.fromEntries(workloads.map((w) => [w, 1])),
  },
  {
    dir: 'k8s/overlays/production',
    namespace: 'whistle',
    host: 'whistle.example.com',
    tag: '0.1.0',
    replicas: productionOverlay.replicas,
  },
];

it('when k8s/overlays is listed, then every overlay is checked here', () => {
  expect(overlays.map((o) => `k8s/overlays/${o}`).sort()).toEqual(
    trees
      .slice(1)
      .map((t) => t.dir)
      .sort(),
  );
});

describe.each(trees)('kubectl kustomize $dir', ({ dir, namespace, host, tag, replicas }) => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = kustomize(dir);
  });

  itChecksTheRelease(() => objects, {
    nameOf: (workload) => workload,
    secretOf: () => 'whistle-secrets',
    imageOf: (workload) =>
      tag ? `registry.example.com/${imageRepositoryOf(workload)}:${tag}` : imageRepositoryOf(workload),
    publicUrl: `https://${host ?? 'whistle.example.com'}`,
    ingress: {
      names: { main: 'whistle', file: 'whistle-file' },
      host,
      tlsSecret: host ? 'whistle-tls' : undefined,
      headers: { namespace: namespace ?? 'whistle', name: 'whistle-response-headers' },
    },
    networkPolicy: true,
    podDisruptionBudget: true,
    replicas,
    metricsPort: 9464,
    metricsPeer: {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
      podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
    },
  });

  it(`when rendered, then every object is in the namespace ${namespace ?? 'of the overlay (none in the base)'}`, () => {
    expect([...new Set(objects.map((o) => o.metadata.namespace))]).toEqual([namespace]);
  });

  it('when rendered, then the services get the settings of this environment from generated ConfigMaps', () => {
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('whistle-config-'))!;
    expect(config.data).toEqual(
      expect.objectContaining({
        AMQP_EXCHANGE: 'whistle.events',
        TRUST_PROXY: '1',
        LOG_LEVEL: expect.stringMatching(/^(info|debug)$/),
      }),
    );
    const s3 = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('whistle-s3-'))!;
    expect(s3.data!.S3_BUCKET).toMatch(/^whistle-[a-z-]*files$/);
  });
});
