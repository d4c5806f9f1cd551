// The chart's production options (issue 28, item 4), each rendered switched on with the real helm and checked in the
// manifests: ServiceAccounts, autoscaling, spread and pod extras, per-source Secrets, egress NetworkPolicies. Every
// render is also checked against the Kubernetes schemas, as every release is (k8s/test/release-checks.ts).
import {
  backendFor,
  containersOf,
  K8sObject,
  readRoutingTable,
  routingSamples,
  schemaErrors,
  selects,
  unknownFieldErrors,
  workloadForPath,
} from '../../k8s/test/support';
import { helmLint, helmTemplate, renderChart } from './helm';

const table = readRoutingTable();
const workloads = Object.keys(table.workloads);
const services = workloads.filter((w) => table.workloads[w].kind === 'service');
const required = { publicUrl: 'https://whistle.example.com', existingSecret: 'whistle-secrets' };

const render = (values: Record<string, unknown>) => renderChart({ values: { ...required, ...values } });
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const deploymentOf = (objects: K8sObject[], workload: string) =>
  objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `whistle-${workload}`)!;
const podOf = (objects: K8sObject[], workload: string) => deploymentOf(objects, workload).spec.template.spec;
const secretRefOf = (objects: K8sObject[], workload: string, variable: string) =>
  containersOf(deploymentOf(objects, workload))[0].env.find((e: any) => e.name === variable)?.valueFrom?.secretKeyRef;

function expectValidManifests(objects: K8sObject[]) {
  expect(objects.flatMap(schemaErrors)).toEqual([]);
  expect(unknownFieldErrors(objects)).toEqual([]);
}

describe('helm/whistle ServiceAccounts', () => {
  it('when rendered with defaults, then each workload runs as its own ServiceAccount without an API token', () => {
    const objects = render({});
    const accounts = ofKind(objects, 'ServiceAccount');
    expect(accounts.map((a) => a.metadata.name).sort()).toEqual(workloads.map((w) => `whistle-${w}`).sort());
    for (const workload of workloads) {
      const account = accounts.find((a) => a.metadata.name === `whistle-${workload}`)!;
      const pod = podOf(objects, workload);
      expect({
        workload,
        accountToken: (account as K8sObject & { automountServiceAccountToken?: boolean }).automountServiceAccountToken,
        annotations: account.metadata.annotations,
        serviceAccountName: pod.serviceAccountName,
        podToken: pod.automountServiceAccountToken,
      }).toEqual({
        workload,
        accountToken: false,
        annotations: undefined,
        serviceAccountName: `whistle-${workload}`,
        podToken: false,
      });
    }
  });

  it('when the file service reaches S3 by cloud identity, then its ServiceAccount carries the role, and it gets the S3 settings without static keys', () => {
    const roleArn = 'arn:aws:iam::123456789012:role/whistle-files';
    const objects = render({
      config: { s3: { credentialChainWorkloads: ['file'] } },
      workloads: {
        file: {
          serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': roleArn } },
          secretEnv: ['DATABASE_URL', 'AMQP_URL', 'DISCLOSER_TOKEN_PUBLIC_KEY'],
        },
      },
    });
    expectValidManifests(objects);
    const account = ofKind(objects, 'ServiceAccount').find((a) => a.metadata.name === 'whistle-file')!;
    expect(account.metadata.annotations).toEqual({ 'eks.amazonaws.com/role-arn': roleArn });
    const [container] = containersOf(deploymentOf(objects, 'file'));
    expect(container.envFrom).toContainEqual({ configMapRef: { name: 'whistle-s3' } });
    const names = container.env.map((e: any) => e.name);
    expect(names).not.toContain('S3_ACCESS_KEY_ID');
    expect(names).not.toContain('S3_SECRET_ACCESS_KEY');
    // The upload counters' own key is what lets the replicas count together then.
    expect(container.env).toContainEqual({
      name: 'UPLOAD_LIMIT_KEY',
      valueFrom: { secretKeyRef: { name: 'whistle-secrets', key: 'UPLOAD_LIMIT_KEY', optional: true } },
    });
    // The others still get no object store settings.
    expect(containersOf(deploymentOf(objects, 'auth'))[0].envFrom).not.toContainEqual({
      configMapRef: { name: 'whistle-s3' },
    });
  });

  it('when a workload uses a ServiceAccount made elsewhere, then the chart makes none for it and the pod names that one', () => {
    const objects = render({ workloads: { audit: { serviceAccount: { create: false, name: 'audit-reader' } } } });
    expect(ofKind(objects, 'ServiceAccount').map((a) => a.metadata.name)).not.toContain('whistle-audit');
    expect(podOf(objects, 'audit').serviceAccountName).toBe('audit-reader');
  });
});

describe('helm/whistle autoscaling, spread and pod extras', () => {
  const caVolume = { name: 'database-ca', configMap: { name: 'cnpg-ca' } };
  const caMount = { name: 'database-ca', mountPath: '/etc/whistle/database-ca', readOnly: true };
  const values = {
    workloads: {
      incident: {
        autoscaling: { enabled: true, minReplicas: 3, maxReplicas: 10, targetCPUUtilizationPercentage: 60 },
        podAnnotations: { 'example.com/team': 'reports' },
        extraEnv: [{ name: 'PGSSLROOTCERT', value: '/etc/whistle/database-ca/ca.crt' }],
        extraEnvFrom: [{ configMapRef: { name: 'incident-extra' } }],
        extraVolumes: [caVolume],
        extraVolumeMounts: [caMount],
      },
      shell: { extraEnvFrom: [{ configMapRef: { name: 'shell-extra' } }] },
    },
    topologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
    ],
  };
  let objects: K8sObject[];
  beforeAll(() => {
    objects = render(values);
  });

  it('when switched on, then the manifests validate and helm lint --strict finds nothing', () => {
    expectValidManifests(objects);
    const lint = helmLint({ values: { ...required, ...values } });
    expect({ status: lint.status, stderr: lint.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('when a workload autoscales, then an autoscaling/v2 HPA targets its Deployment, which leaves replicas out; the others keep theirs', () => {
    const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
    expect(hpas).toHaveLength(1);
    expect(hpas[0].apiVersion).toBe('autoscaling/v2');
    expect(hpas[0].spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'whistle-incident' },
      minReplicas: 3,
      maxReplicas: 10,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      ],
    });
    expect(deploymentOf(objects, 'incident').spec).not.toHaveProperty('replicas');
    expect(deploymentOf(objects, 'auth').spec.replicas).toBe(2);
  });

  it('when maxReplicas is below minReplicas, then helm refuses the values', () => {
    const result = helmTemplate({
      values: { ...required, workloads: { auth: { autoscaling: { enabled: true, minReplicas: 4, maxReplicas: 2 } } } },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('workloads.auth.autoscaling: maxReplicas is below minReplicas');
  });

  it("when a spread constraint has no labelSelector, then each workload's spreads its own pods", () => {
    for (const workload of workloads) {
      const deployment = deploymentOf(objects, workload);
      const [constraint] = deployment.spec.template.spec.topologySpreadConstraints;
      expect(constraint).toEqual(expect.objectContaining(values.topologySpreadConstraints[0]));
      expect(
        workloads.filter((w) =>
          selects(constraint.labelSelector, deploymentOf(objects, w).spec.template.metadata.labels),
        ),
      ).toEqual([workload]);
    }
  });

  it('when a workload has extras, then its pod gets the annotations, env, envFrom, volumes and mounts after the chart’s own', () => {
    const deployment = deploymentOf(objects, 'incident');
    const pod = deployment.spec.template.spec;
    const [container] = containersOf(deployment);
    expect(deployment.spec.template.metadata.annotations).toEqual({
      'checksum/config': expect.stringMatching(/^[0-9a-f]{64}$/),
      'example.com/team': 'reports',
    });
    expect(container.env.at(-1)).toEqual({ name: 'PGSSLROOTCERT', value: '/etc/whistle/database-ca/ca.crt' });
    expect(container.envFrom).toEqual([
      { configMapRef: { name: 'whistle-config' } },
      { configMapRef: { name: 'incident-extra' } },
    ]);
    expect(pod.volumes.at(-1)).toEqual(caVolume);
    expect(container.volumeMounts.at(-1)).toEqual(caMount);
    // A frontend (no envFrom of its own) gets the extra envFrom too.
    expect(containersOf(deploymentOf(objects, 'shell'))[0].envFrom).toEqual([
      { configMapRef: { name: 'shell-extra' } },
    ]);
    // Others are untouched.
    expect(containersOf(deploymentOf(objects, 'auth'))[0].volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
  });
});

describe('helm/whistle per-source Secrets of the database and the broker', () => {
  it('when the database and the broker each name a Secret, then every service reads its URL there, a service’s credentialsSecret still wins, and the other keys stay in existingSecret', () => {
    const objects = render({
      externalDatabase: { existingSecret: 'cnpg-app', urlKey: 'uri' },
      externalRabbitmq: { existingSecret: 'rabbitmq-default-user' },
      workloads: { audit: { credentialsSecret: 'whistle-audit-credentials' } },
    });
    expectValidManifests(objects);
    for (const service of services) {
      const own = service === 'audit' ? 'whistle-audit-credentials' : undefined;
      expect({ service, db: secretRefOf(objects, service, 'DATABASE_URL') }).toEqual({
        service,
        db: { name: own ?? 'cnpg-app', key: 'uri' },
      });
      expect({ service, mq: secretRefOf(objects, service, 'AMQP_URL') }).toEqual({
        service,
        mq: { name: own ?? 'rabbitmq-default-user', key: 'AMQP_URL' },
      });
    }
    expect(secretRefOf(objects, 'auth', 'TOKEN_SIGNING_KEY')).toEqual({
      name: 'whistle-secrets',
      key: 'TOKEN_SIGNING_KEY',
    });
  });
});

describe('helm/whistle egress NetworkPolicies', () => {
  const db = [{ ipBlock: { cidr: '10.20.0.0/16' } }];
  const mq = [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'rabbitmq' } } }];
  const s3 = [{ ipBlock: { cidr: '0.0.0.0/0' } }];
  const smtp = [{ ipBlock: { cidr: '192.0.2.25/32' } }];
  const egress = {
    enabled: true,
    database: { to: db, ports: [5432] },
    broker: { to: mq, ports: [5671] },
    objectStore: { to: s3, ports: [443] },
    smtp: { to: smtp, ports: [587] },
  };
  const policyOf = (objects: K8sObject[], workload: string) =>
    objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === `whistle-${workload}-egress`)!;
  /** Rules after DNS, as [peers, ports]. */
  const destinations = (objects: K8sObject[], workload: string) =>
    policyOf(objects, workload)
      .spec.egress.slice(1)
      .map((rule: any) => [rule.to, rule.ports.map((p: any) => p.port)]);

  it('when rendered with defaults, then no egress policy exists (pods may connect anywhere, as before)', () => {
    expect(ofKind(render({}), 'NetworkPolicy').map((p) => p.metadata.name)).toEqual([
      'whistle-services',
      'whistle-frontends',
    ]);
  });

  it('when switched on, then each workload is denied egress but DNS and what its credentials point at', () => {
    const objects = render({ networkPolicy: { egress } });
    expectValidManifests(objects);
    for (const workload of workloads) {
      const policy = policyOf(objects, workload);
      expect({ workload, types: policy.spec.policyTypes }).toEqual({ workload, types: ['Egress'] });
      expect(
        workloads.filter((w) =>
          selects(policy.spec.podSelector, deploymentOf(objects, w).spec.template.metadata.labels),
        ),
      ).toEqual([workload]);
      expect(policy.spec.egress[0]).toEqual({
        to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }],
        ports: [
          { port: 53, protocol: 'UDP' },
          { port: 53, protocol: 'TCP' },
        ],
      });
    }
    expect(destinations(objects, 'auth')).toEqual([
      [db, [5432]],
      [mq, [5671]],
    ]);
    expect(destinations(objects, 'file')).toEqual([
      [db, [5432]],
      [mq, [5671]],
      [s3, [443]],
    ]);
    expect(destinations(objects, 'notification')).toEqual([
      [db, [5432]],
      [mq, [5671]],
      [smtp, [587]],
    ]);
    expect(destinations(objects, 'mfe-disclose')).toEqual([]);
    const [[shellPeers, shellPorts]] = destinations(objects, 'shell');
    expect(shellPorts).toEqual(['http']);
    expect(
      workloads.filter((w) =>
        selects(shellPeers[0].podSelector, deploymentOf(objects, w).spec.template.metadata.labels),
      ),
    ).toEqual(workloads.filter((w) => table.workloads[w].kind === 'frontend'));
  });

  it('when error reporting is on, then every service may also reach the error-reporting server', () => {
    const sentry = [{ ipBlock: { cidr: '203.0.113.10/32' } }];
    const objects = render({
      config: { errorReporting: { dsn: 'https://key@errors.example.com/1' } },
      networkPolicy: { egress: { ...egress, errorReporting: { to: sentry, ports: [443] } } },
    });
    for (const service of services)
      expect({ service, last: destinations(objects, service).at(-1) }).toEqual({ service, last: [sentry, [443]] });
  });

  it('when a destination a workload needs has no peers, then helm refuses the values and names it', () => {
    const result = helmTemplate({
      values: { ...required, networkPolicy: { egress: { ...egress, smtp: { to: [], ports: [587] } } } },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('networkPolicy.egress.smtp.to is required: workloads.notification connects to it');
  });
});

describe('helm/whistle Gateway API HTTPRoute', () => {
  const parentRefs = [{ name: 'public', namespace: 'gateway-system', sectionName: 'https' }];
  const routeOf = (objects: K8sObject[]) => ofKind(objects, 'HTTPRoute');
  /** The Service a Gateway sends a path to: the longest PathPrefix match, whole segments. */
  const backendOfRoute = (route: K8sObject, path: string) => {
    const rules = (route.spec.rules as any[]).map((rule) => ({
      prefix: rule.matches[0].path.value,
      workload: JSON.stringify(rule.backendRefs[0]),
    }));
    const chosen = workloadForPath(rules, path);
    return chosen && (JSON.parse(chosen) as { name: string; port: number });
  };

  it('when rendered with defaults, then there is no HTTPRoute', () => {
    expect(routeOf(render({}))).toEqual([]);
  });

  it('when switched on, then one HTTPRoute on the public host sends every path where the Ingress sends it, with no controller annotation', () => {
    const objects = render({ httpRoute: { enabled: true, parentRefs } });
    expectValidManifests(objects);
    const [route, ...others] = routeOf(objects);
    expect(others).toEqual([]);
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.metadata.annotations).toBeUndefined();
    expect(route.spec.parentRefs).toEqual(parentRefs);
    expect(route.spec.hostnames).toEqual(['whistle.example.com']);
    // Gateway API allows 16 rules per route.
    expect(route.spec.rules.length).toBeLessThanOrEqual(16);
    for (const rule of route.spec.rules)
      expect(rule.filters).toEqual([
        {
          type: 'ResponseHeaderModifier',
          responseHeaderModifier: {
            set: [
              { name: 'Referrer-Policy', value: 'no-referrer' },
              { name: 'Strict-Transport-Security', value: 'max-age=31536000; includeSubDomains' },
              { name: 'X-Content-Type-Options', value: 'nosniff' },
            ],
          },
        },
      ]);
    const ingresses = ofKind(objects, 'Ingress');
    for (const [path, workload] of routingSamples) {
      const viaIngress = backendFor(ingresses, path)!;
      expect({ path, backend: backendOfRoute(route, path) }).toEqual({
        path,
        backend: { name: viaIngress.name, port: viaIngress.port },
      });
      expect(viaIngress.name).toBe(`whistle-${workload}`);
    }
  });

  it('when switched on without the Ingress, then only the HTTPRoute routes (no ingress-nginx object is left)', () => {
    const objects = render({ ingress: { enabled: false }, httpRoute: { enabled: true, parentRefs } });
    expect(ofKind(objects, 'Ingress')).toEqual([]);
    expect(objects.filter((o) => o.metadata.name.endsWith('-response-headers'))).toEqual([]);
    expect(routeOf(objects)).toHaveLength(1);
  });

  it('when switched on without a Gateway, then helm refuses the values', () => {
    const result = helmTemplate({ values: { ...required, httpRoute: { enabled: true } } });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('httpRoute.parentRefs is required');
  });
});

describe('helm/whistle image digests', () => {
  const digest = `sha256:${'ab'.repeat(32)}`;

  it('when a workload has an image digest, then it is pulled by digest, the tag ignored; the others keep their tag', () => {
    const objects = render({
      image: { registry: 'registry.example.com', tag: '1.2.3' },
      workloads: { file: { image: { digest } } },
    });
    expect(containersOf(deploymentOf(objects, 'file'))[0].image).toBe(
      `registry.example.com/whistle/file-service@${digest}`,
    );
    expect(containersOf(deploymentOf(objects, 'auth'))[0].image).toBe(
      'registry.example.com/whistle/auth-service:1.2.3',
    );
  });

  it('when a digest is not a sha256 digest, then helm refuses the values', () => {
    const result = helmTemplate({ values: { ...required, workloads: { file: { image: { digest: 'latest' } } } } });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('- workloads.file.image.digest: Does not match pattern');
  });
});

describe('helm/whistle migrations Job and helm test', () => {
  const hookOf = (o: K8sObject) => o.metadata.annotations?.['helm.sh/hook'];

  it('when rendered with defaults, then there is no Job and no test Pod (services migrate at start, as before)', () => {
    const objects = render({});
    expect(objects.filter((o) => o.kind === 'Job' || o.kind === 'Pod')).toEqual([]);
  });

  it('when the migrations Job is on, then each service with a database gets a pre-install/pre-upgrade Job running its migrate up with its own database URL, selected by none of its workload objects', () => {
    const objects = render({
      migrations: { job: { enabled: true } },
      externalDatabase: { urlKey: 'uri' },
      workloads: {
        audit: { credentialsSecret: 'whistle-audit-credentials', image: { digest: `sha256:${'cd'.repeat(32)}` } },
      },
    });
    expectValidManifests(objects);
    const jobs = ofKind(objects, 'Job');
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(services.map((s) => `whistle-${s}-migrate`).sort());
    for (const service of services) {
      const job = jobs.find((j) => j.metadata.name === `whistle-${service}-migrate`)!;
      const pod = job.spec.template.spec;
      const [container] = pod.containers;
      expect({ service, hook: hookOf(job), command: container.command, restart: pod.restartPolicy }).toEqual({
        service,
        hook: 'pre-install,pre-upgrade',
        command: ['node', `services/${service}/dist/migrate.js`, 'up'],
        restart: 'Never',
      });
      expect(container.image).toBe(containersOf(deploymentOf(objects, service))[0].image);
      expect(container.env.find((e: any) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({
        name: service === 'audit' ? 'whistle-audit-credentials' : 'whistle-secrets',
        key: 'uri',
      });
      // Only the database URL: no other credential reaches the Job.
      expect(container.env.filter((e: any) => e.valueFrom).map((e: any) => e.name)).toEqual(['DATABASE_URL']);
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      const labels = job.spec.template.metadata.labels;
      for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget']) {
        const own = objects.find((o) => o.kind === kind && o.metadata.name === `whistle-${service}`)!;
        expect({ service, kind, selectsJob: selects(own.spec.selector, labels) }).toEqual({
          service,
          kind,
          selectsJob: false,
        });
      }
    }
  });

  it('when helm tests are on, then a test hook Pod asks every workload’s /readyz through its Service, and the NetworkPolicies admit it', () => {
    const objects = render({ tests: { enabled: true } });
    expectValidManifests(objects);
    const [pod, ...others] = ofKind(objects, 'Pod');
    expect(others).toEqual([]);
    expect(hookOf(pod)).toBe('test');
    const urls = pod.spec.containers[0].env.find((e: any) => e.name === 'READY_URLS').value.split(' ');
    expect(urls.sort()).toEqual(workloads.map((w) => `http://whistle-${w}:${table.workloads[w].port}/readyz`).sort());
    const admitsTestPod = (policy: K8sObject) =>
      policy.spec.ingress.some(
        (rule: any) =>
          rule.ports?.some((p: any) => p.port === 'http') !== false &&
          rule.from.some(
            (peer: any) =>
              peer.podSelector && !peer.namespaceSelector && selects(peer.podSelector, pod.metadata.labels!),
          ),
      );
    const policies = ofKind(objects, 'NetworkPolicy');
    expect(policies.map((p) => [p.metadata.name, admitsTestPod(p)])).toEqual([
      ['whistle-services', true],
      ['whistle-frontends', true],
    ]);
    // Without tests, no policy admits such a Pod.
    expect(ofKind(render({}), 'NetworkPolicy').map(admitsTestPod)).toEqual([false, false]);
  });
});

describe('helm/whistle with every production option on at once', () => {
  const values = {
    ...required,
    config: { s3: { credentialChainWorkloads: ['file'] } },
    externalDatabase: { existingSecret: 'cnpg-app', urlKey: 'uri' },
    externalRabbitmq: { existingSecret: 'rabbitmq-default-user' },
    workloads: {
      incident: { autoscaling: { enabled: true }, image: { digest: `sha256:${'ef'.repeat(32)}` } },
      file: { serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/files' } } },
    },
    topologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
    ],
    networkPolicy: {
      egress: {
        enabled: true,
        database: { to: [{ ipBlock: { cidr: '10.0.0.0/8' } }], ports: [5432] },
        broker: { to: [{ ipBlock: { cidr: '10.0.0.0/8' } }], ports: [5671] },
        objectStore: { to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [443] },
        smtp: { to: [{ ipBlock: { cidr: '10.0.0.0/8' } }], ports: [587] },
      },
    },
    httpRoute: { enabled: true, parentRefs: [{ name: 'public' }] },
    migrations: { job: { enabled: true } },
    tests: { enabled: true },
  };

  it('when linted with --strict and rendered, then helm finds nothing and every object validates', () => {
    const lint = helmLint({ values });
    expect({ status: lint.status, stderr: lint.stderr }).toEqual({ status: 0, stderr: '' });
    const objects = renderChart({ values });
    expectValidManifests(objects);
    expect(new Set(objects.map((o) => o.kind))).toEqual(
      new Set([
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'HTTPRoute',
        'Ingress',
        'Job',
        'NetworkPolicy',
        'Pod',
        'PodDisruptionBudget',
        'Service',
        'ServiceAccount',
      ]),
    );
  });
});
