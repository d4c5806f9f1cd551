// helm/whistle rendered for real (helm 3.17 lint and template) with representative values, each render checked
// like every release (k8s/test/release-checks.ts), then what each values set switches on.
import { lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { itChecksTheRelease, ReleaseExpectations } from '../../k8s/test/release-checks';
import {
  containersOf,
  imageRepositoryOf,
  K8sObject,
  kustomize,
  plainEnvOf,
  productionOverlay,
  readRoutingTable,
  repoRoot,
} from '../../k8s/test/support';
import { BODY_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../packages/service-kit/src/http/stalled-body';
import { chartDir, helmLint, HelmOptions, renderChart } from './helm';
import { readTemplates, valueReferenceProblems } from './template-check';

const values = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
const chartMeta = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8'));
const table = readRoutingTable();
const workloads = Object.keys(table.workloads);
const services = workloads.filter((w) => table.workloads[w].kind === 'service');
const required = { publicUrl: 'https://whistle.example.com', existingSecret: 'whistle-secrets' };

interface ValuesSet extends HelmOptions {
  name: string;
  expected: ReleaseExpectations;
}

const defaultExpectations = (fullname: string, namespace: string): ReleaseExpectations => ({
  nameOf: (workload) => `${fullname}-${workload}`,
  secretOf: () => 'whistle-secrets',
  imageOf: (workload) => `${imageRepositoryOf(workload)}:${chartMeta.appVersion}`,
  publicUrl: 'https://whistle.example.com',
  ingress: {
    names: { main: fullname, file: `${fullname}-file` },
    host: 'whistle.example.com',
    tlsSecret: undefined,
    headers: { namespace, name: `${fullname}-response-headers` },
  },
  networkPolicy: true,
  podDisruptionBudget: true,
  metricsPort: 9464,
  metricsPeer: {
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
    podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
  },
});

const optionalPartsOn = 'with every optional part switched on';

const sets: ValuesSet[] = [
  {
    name: 'minimal (publicUrl and existingSecret only)',
    values: required,
    expected: defaultExpectations('whistle', 'whistle'),
  },
  {
    name: optionalPartsOn,
    release: 'acme',
    namespace: 'reports',
    values: {
      publicUrl: 'https://speakup.acme.example:8443/',
      existingSecret: 'acme-credentials',
      fullnameOverride: 'speakup',
      image: { registry: 'registry.acme.example', tag: '0.1.0-acme.1', pullPolicy: 'Always' },
      imagePullSecrets: [{ name: 'acme-registry' }],
      config: {
        logLevel: 'debug',
        mailFrom: 'Acme Speak Up <speakup@acme.example>',
        s3: { endpoint: 'https://objects.acme.example', bucket: 'acme-whistle' },
      },
      externalDatabase: { urlKey: 'PG_URL' },
      externalRabbitmq: { urlKey: 'MQ_URL' },
      workloads: { file: { existingSecret: 'acme-file-credentials', image: { tag: '0.1.1' } } },
      ingress: {
        className: 'nginx',
        annotations: { 'cert-manager.io/cluster-issuer': 'acme-issuer' },
        tlsSecretName: 'speakup-tls',
      },
      metrics: {
        port: 9100,
        networkPolicy: {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } },
          podSelector: null,
        },
        serviceMonitor: { enabled: true, labels: { release: 'kube-prometheus-stack' } },
        prometheusRule: { enabled: true },
        grafanaDashboard: { enabled: true },
      },
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'whistle', effect: 'NoSchedule' }],
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: 'kubernetes.io/hostname',
                labelSelector: { matchLabels: { 'app.kubernetes.io/instance': 'acme' } },
              },
            },
          ],
        },
      },
    },
    expected: {
      ...defaultExpectations('speakup', 'reports'),
      secretOf: (workload) => (workload === 'file' ? 'acme-file-credentials' : 'acme-credentials'),
      secretKeyOf: (variable) => ({ DATABASE_URL: 'PG_URL', AMQP_URL: 'MQ_URL' })[variable] ?? variable,
      imageOf: (workload) =>
        `registry.acme.example/${imageRepositoryOf(workload)}:${workload === 'file' ? '0.1.1' : '0.1.0-acme.1'}`,
      publicUrl: 'https://speakup.acme.example:8443',
      metricsPort: 9100,
      metricsPeer: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } } },
      ingress: {
        names: { main: 'speakup', file: 'speakup-file' },
        host: 'speakup.acme.example',
        tlsSecret: 'speakup-tls',
        headers: { namespace: 'reports', name: 'speakup-response-headers' },
      },
    },
  },
  {
    // Each service with its own database login and broker user (docs/operations.md, "Database roles", "Broker users").
    name: 'production-like (like k8s/overlays/production), each service with its own database login and broker user',
    values: {
      ...required,
      image: { registry: 'registry.example.com', tag: '0.1.0' },
      config: { s3: { endpoint: 'https://s3.eu-west-1.amazonaws.com', bucket: 'whistle-production-files' } },
      workloads: Object.fromEntries(
        workloads.map((w) => [
          w,
          {
            replicaCount: productionOverlay.replicas[w],
            ...(table.workloads[w].kind === 'service'
              ? { resources: productionOverlay.serviceResources, credentialsSecret: `whistle-${w}-credentials` }
              : {}),
          },
        ]),
      ),
      ingress: { tlsSecretName: 'whistle-tls' },
    },
    expected: {
      ...defaultExpectations('whistle', 'whistle'),
      secretOf: (workload, variable) =>
        ['DATABASE_URL', 'AMQP_URL'].includes(variable) ? `whistle-${workload}-credentials` : 'whistle-secrets',
      imageOf: (workload) => `registry.example.com/${imageRepositoryOf(workload)}:0.1.0`,
      replicas: productionOverlay.replicas,
      ingress: { ...defaultExpectations('whistle', 'whistle').ingress!, tlsSecret: 'whistle-tls' },
    },
  },
  {
    name: 'with the optional objects switched off',
    values: {
      ...required,
      ingress: { enabled: false },
      networkPolicy: { enabled: false },
      podDisruptionBudget: { enabled: false },
    },
    expected: {
      ...defaultExpectations('whistle', 'whistle'),
      ingress: undefined,
      networkPolicy: false,
      podDisruptionBudget: false,
    },
  },
];

describe('helm chart whistle', () => {
  it('when Chart.yaml is read, then it is one application chart (v2) without subcharts to download', () => {
    expect(chartMeta).toEqual(expect.objectContaining({ apiVersion: 'v2', name: 'whistle', type: 'application' }));
    expect(chartMeta.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(chartMeta.dependencies).toBeUndefined();
    expect(values.postgresql.enabled).toBe(false);
    expect(values.rabbitmq.enabled).toBe(false);
  });

  it('when files/routes.json is followed, then it is a relative symlink to the contracts routing table (helm packages its content)', () => {
    const link = join(chartDir, 'files/routes.json');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../../../packages/contracts/src/routing/routes.json');
    expect(realpathSync(link)).toBe(realpathSync(join(repoRoot, 'packages/contracts/src/routing/routes.json')));
  });

  it('when the templates are read, then every value they use exists in values.yaml (helm would render a missing one as empty)', () => {
    expect(valueReferenceProblems(readTemplates(chartDir), values)).toEqual([]);
  });

  it('when a template uses a value or a workload field that values.yaml lacks, then the check reports it', () => {
    const broken = {
      'broken.yaml': [
        '{{- if .Values.ingress.enabld }}{{ end }}',
        '{{- range $name, $w := .Values.workloads }}{{ $w.image.repo }}{{ end }}',
        '{{/* .Values.inAComment */}}',
      ].join('\n'),
    };
    expect(valueReferenceProblems(broken, values)).toEqual([
      'broken.yaml: .Values.ingress.enabld is not in values.yaml',
      ...Object.keys(values.workloads).map(
        (name) => `broken.yaml: $w.image.repo is missing in .Values.workloads.${name}`,
      ),
    ]);
  });

  it('when values.yaml is read, then it holds no secret value (credentials come from existingSecret only)', () => {
    expect(values.existingSecret).toBe('');
    const offending: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (node && typeof node === 'object')
        for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
      else if (
        /password|passwd|secretAccessKey|accessKeyId|token|privateKey|encryptionKey|_URL$/i.test(
          path.split('.').at(-1)!,
        ) &&
        node
      )
        offending.push(path);
      else if (typeof node === 'string' && /:\/\/[^/\s]*:[^/\s]*@/.test(node)) offending.push(path);
    };
    walk(values, '');
    expect(offending).toEqual([]);
  });
});

describe.each(sets)('helm template, values $name', ({ name, expected, ...options }) => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = renderChart(options);
  });
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);

  it('when linted with --strict for Kubernetes 1.31, then helm finds nothing', () => {
    const lint = helmLint(options);
    expect({ status: lint.status, stderr: lint.stderr }).toEqual({ status: 0, stderr: '' });
    expect(lint.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
  });

  itChecksTheRelease(() => objects, expected);

  it('when rendered, then every object carries the release labels and no namespace of its own (helm installs into --namespace)', () => {
    const release = options.release ?? 'whistle';
    for (const o of objects) {
      expect({ object: `${o.kind}/${o.metadata.name}`, namespace: o.metadata.namespace }).toEqual({
        object: `${o.kind}/${o.metadata.name}`,
        namespace: undefined,
      });
      expect(o.metadata.labels).toEqual(
        expect.objectContaining({
          'app.kubernetes.io/instance': release,
          'app.kubernetes.io/managed-by': 'Helm',
          'app.kubernetes.io/part-of': 'whistle',
          'helm.sh/chart': `whistle-${chartMeta.version}`,
        }),
      );
    }
    for (const deployment of ofKind('Deployment'))
      expect(deployment.spec.template.metadata.annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
  });

  if (name === optionalPartsOn) {
    it('when rendered, then pods get the pull secret, pull policy and scheduling constraints', () => {
      for (const deployment of ofKind('Deployment')) {
        const pod = deployment.spec.template.spec;
        expect({
          name: deployment.metadata.name,
          pullSecrets: pod.imagePullSecrets,
          pullPolicy: pod.containers[0].imagePullPolicy,
          nodeSelector: pod.nodeSelector,
          tolerations: pod.tolerations,
          affinity: pod.affinity,
        }).toEqual({
          name: deployment.metadata.name,
          pullSecrets: [{ name: 'acme-registry' }],
          pullPolicy: 'Always',
          nodeSelector: (options.values as any).nodeSelector,
          tolerations: (options.values as any).tolerations,
          affinity: (options.values as any).affinity,
        });
      }
    });

    it('when rendered, then the services get the configured sender, log level and object store, and both Ingresses the extra annotation', () => {
      for (const service of services) {
        const deployment = ofKind('Deployment').find((o) => o.metadata.name === `speakup-${service}`)!;
        const env = plainEnvOf(objects, deployment);
        expect({ service, mailFrom: env.MAIL_FROM, logLevel: env.LOG_LEVEL }).toEqual({
          service,
          mailFrom: 'Acme Speak Up <speakup@acme.example>',
          logLevel: 'debug',
        });
        if (service === 'file')
          expect(env).toEqual(
            expect.objectContaining({ S3_ENDPOINT: 'https://objects.acme.example', S3_BUCKET: 'acme-whistle' }),
          );
      }
      for (const ingress of ofKind('Ingress'))
        expect(ingress.metadata.annotations!['cert-manager.io/cluster-issuer']).toBe('acme-issuer');
    });
  } else {
    it('when rendered, then pods get no pull secret or scheduling constraint, and e-mails come from no-reply at the public host', () => {
      for (const deployment of ofKind('Deployment')) {
        const pod = deployment.spec.template.spec;
        expect([pod.imagePullSecrets, pod.nodeSelector, pod.tolerations, pod.affinity]).toEqual([
          undefined,
          undefined,
          undefined,
          undefined,
        ]);
        expect(pod.containers[0].imagePullPolicy).toBe('IfNotPresent');
        if (deployment.metadata.labels!['whistle/kind'] === 'service')
          expect(plainEnvOf(objects, deployment).MAIL_FROM).toBe('Whistle <no-reply@whistle.example.com>');
      }
    });
  }
});

describe('helm template compared with kubectl kustomize k8s/overlays/production', () => {
  const production = sets.find((s) => s.name.startsWith('production-like'))!;
  /** A Deployment's pod as it runs, with the names each tool gives the release's objects left out. */
  const shapeOf = (objects: K8sObject[], deployment: K8sObject) => {
    const pod = deployment.spec.template.spec;
    const [container] = containersOf(deployment);
    const env = plainEnvOf(objects, deployment);
    for (const key of Object.keys(env)) if (key.endsWith('_UPSTREAM')) env[key] = env[key].replace(/^whistle-/, '');
    return {
      replicas: deployment.spec.replicas,
      strategy: deployment.spec.strategy,
      revisionHistoryLimit: deployment.spec.revisionHistoryLimit,
      podSecurityContext: pod.securityContext,
      automountServiceAccountToken: pod.automountServiceAccountToken,
      terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds,
      volumes: pod.volumes.map((v: any) => ({ ...v, configMap: v.configMap && '(a ConfigMap)' })),
      container: {
        ...container,
        envFrom: undefined,
        env: (container.env ?? [])
          .filter((e: any) => e.valueFrom)
          .map((e: any) => ({ name: e.name, optional: e.valueFrom.secretKeyRef.optional })),
      },
      env,
    };
  };

  it('when both render production, then every workload runs the same pod: security, probes, resources, replicas, credentials and settings', () => {
    const chart = renderChart(production);
    const overlay = kustomize('k8s/overlays/production');
    for (const workload of workloads) {
      const fromChart = chart.find((o) => o.kind === 'Deployment' && o.metadata.name === `whistle-${workload}`)!;
      const fromOverlay = overlay.find((o) => o.kind === 'Deployment' && o.metadata.name === workload)!;
      expect({ workload, ...shapeOf(chart, fromChart) }).toEqual({ workload, ...shapeOf(overlay, fromOverlay) });
    }
  });
});

describe('helm template, error reporting', () => {
  const browserDsn = 'https://browserkey@errors.example.com/2';
  const remotesOf = (objects: K8sObject[]) =>
    JSON.parse(
      objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'whistle-remotes')!.data!['remotes.json'],
    );
  const deploymentOf = (objects: K8sObject[], service: string) =>
    objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `whistle-${service}`)!;

  it("when the DSNs are set, then every service gets the SENTRY_* variables and /remotes.json the browser's entry; by default neither", () => {
    const on = renderChart({
      values: {
        ...required,
        config: {
          errorReporting: {
            dsn: 'https://servicekey@errors.example.com/1',
            browserDsn,
            environment: 'production',
            tracesSampleRate: 0.5,
          },
        },
      },
    });
    for (const service of services)
      expect(plainEnvOf(on, deploymentOf(on, service))).toEqual(
        expect.objectContaining({
          SENTRY_DSN: 'https://servicekey@errors.example.com/1',
          SENTRY_BROWSER_DSN: browserDsn,
          SENTRY_ENVIRONMENT: 'production',
          SENTRY_TRACES_SAMPLE_RATE: '0.5',
        }),
      );
    expect(remotesOf(on)).toEqual(
      expect.objectContaining({
        mfe_disclose: '/remotes/mfe-disclose/mf-manifest.json',
        errorReporting: { dsn: browserDsn, tracesSampleRate: 0.5, environment: 'production' },
      }),
    );

    const off = renderChart({ values: required });
    for (const service of services)
      expect(
        Object.keys(plainEnvOf(off, deploymentOf(off, service))).filter((key) => key.startsWith('SENTRY_')),
      ).toEqual([]);
    expect(remotesOf(off)).not.toHaveProperty('errorReporting');
  });

  it('when a DSN is not one, then the chart refuses the values', () => {
    expect(() =>
      renderChart({ values: { ...required, config: { errorReporting: { browserDsn: 'errors.example.com' } } } }),
    ).toThrow(/browserDsn/);
  });
});

describe('helm/whistle Ingress timeouts (issue 30, item 3)', () => {
  const ingresses = (values: Record<string, unknown> = {}) =>
    renderChart({ values: { ...required, ...values } }).filter((o) => o.kind === 'Ingress');
  const seconds = (ingress: K8sObject, name: string) =>
    Number(ingress.metadata.annotations![`nginx.ingress.kubernetes.io/${name}`]);

  it('when rendered, then the controller connects to a pod within 5 s and waits for it longer than the services wait for a stalled body or for S3', () => {
    const rendered = ingresses();
    expect(rendered).toHaveLength(2);
    for (const ingress of rendered) {
      expect({ name: ingress.metadata.name, connect: seconds(ingress, 'proxy-connect-timeout') }).toEqual({
        name: ingress.metadata.name,
        connect: 5,
      });
      // The service's own answer (a 408 after BODY_IDLE_TIMEOUT_MS, a 503 after 60 s without a byte from S3) comes
      // before the controller's 504.
      for (const wait of ['proxy-send-timeout', 'proxy-read-timeout']) {
        expect(seconds(ingress, wait) * 1000).toBeGreaterThan(BODY_IDLE_TIMEOUT_MS);
        expect(seconds(ingress, wait)).toBeGreaterThan(60);
        expect(seconds(ingress, wait) * 1000).toBeLessThan(REQUEST_TIMEOUT_MS);
      }
    }
  });

  it('when rendered, then only uploads reach their service unbuffered, so its idle-body, total-time and concurrency limits see the client', () => {
    const buffering = Object.fromEntries(
      ingresses().map((ingress) => [
        ingress.metadata.name,
        ingress.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-request-buffering'],
      ]),
    );
    expect(buffering).toEqual({ whistle: undefined, 'whistle-file': 'off' });
  });

  it('when an extra annotation sets a timeout, then it replaces the chart’s, never a second key', () => {
    for (const ingress of ingresses({
      ingress: { annotations: { 'nginx.ingress.kubernetes.io/proxy-read-timeout': '120' } },
    }))
      expect(seconds(ingress, 'proxy-read-timeout')).toBe(120);
  });
});
