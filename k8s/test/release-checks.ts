// What every rendered release of Whistle must satisfy, whether the Helm chart or kustomize rendered it: valid
// Kubernetes objects, one Deployment/Service/PodDisruptionBudget per workload of the routing table wired to each
// other by labels, hardened pods probed on /healthz and /readyz, credentials only by reference to a Secret, an
// Ingress equal to the routing table, each service's /metrics on a port of its own that no Ingress routes, and
// NetworkPolicies that admit only the ingress controller and the callers each workload has, and Prometheus alone to
// the metrics port.
import {
  allSecretKeys,
  backendFor,
  bytesOf,
  containersOf,
  expectedSecretEnv,
  incidentLimitDefaults,
  K8sObject,
  MAX_UPLOAD_BODY_BYTES,
  plainEnvOf,
  readRoutingTable,
  routingSamples,
  schemaErrors,
  selects,
  unknownFieldErrors,
} from './support';
import { BODY_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../packages/service-kit/src/http/stalled-body';

/** How long the S3 client waits without a byte before the file service answers 503 (s3-object-store.ts, not exported). */
const S3_IDLE_TIMEOUT_MS = 60_000;

export interface ReleaseExpectations {
  /** Name of a workload's Deployment, Service and PodDisruptionBudget. */
  nameOf: (workload: string) => string;
  /** Secret holding a workload's credential for an environment variable. */
  secretOf: (workload: string, variable: string) => string;
  /** Key of that Secret for an environment variable (default: the variable's name). */
  secretKeyOf?: (variable: string) => string;
  /** Ingresses, or undefined when the release renders none: the main one and the file service's (uploads). */
  ingress?: {
    names: { main: string; file: string };
    /** Host of every rule (undefined: no host, e.g. k8s/base, which overlays give one). */
    host: string | undefined;
    /** TLS Secret of the host, undefined for none. */
    tlsSecret: string | undefined;
    /** `namespace/name` of the response-headers ConfigMap named in the custom-headers annotation. */
    headers: { namespace: string; name: string };
  };
  networkPolicy: boolean;
  podDisruptionBudget: boolean;
  /** Origin every service gets as PUBLIC_URL. */
  publicUrl: string;
  /** Replicas per workload, when the release sets them. */
  replicas?: Record<string, number>;
  /** Image of a workload's container. */
  imageOf: (workload: string) => string;
  /** The incident service's rate limits (default: those of its config schema). */
  incidentLimits?: Record<string, string>;
  /** Port of each service's /metrics (METRICS_PORT, container port `metrics`). */
  metricsPort: number;
  /** The one peer the NetworkPolicy admits to the metrics port: Prometheus's namespace, and its pods when given. */
  metricsPeer: { namespaceSelector: object; podSelector?: object };
}

const table = readRoutingTable();
const workloads = Object.keys(table.workloads);
const kindOf = (workload: string) => table.workloads[workload].kind;
const sorted = (values: Iterable<string>) => [...values].sort();

/** Defines the shared checks of one rendered release inside the calling `describe`. */
export function itChecksTheRelease(render: () => K8sObject[], expected: ReleaseExpectations): void {
  const ofKind = (kind: string) => render().filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => ofKind(kind).find((o) => o.metadata.name === name);
  const deploymentOf = (workload: string) => named('Deployment', expected.nameOf(workload))!;
  const podLabelsOf = (workload: string) => deploymentOf(workload).spec.template.metadata.labels;
  const containerOf = (workload: string) => containersOf(deploymentOf(workload))[0];
  /** Workloads whose pods a selector selects. */
  const selected = (selector: any) => workloads.filter((w) => selects(selector, podLabelsOf(w)));
  const plainEnv = (workload: string) => plainEnvOf(render(), deploymentOf(workload));

  it('when rendered, then every object validates against the Kubernetes schemas and has no field Kubernetes does not know', () => {
    expect(render().length).toBeGreaterThan(0);
    expect(render().flatMap(schemaErrors)).toEqual([]);
    expect(unknownFieldErrors(render())).toEqual([]);
  });

  it('when rendered, then each workload of the routing table has one Deployment, a Service on its port and a PodDisruptionBudget, wired by labels; each service a headless metrics Service', () => {
    expect(sorted(ofKind('Deployment').map((o) => o.metadata.name))).toEqual(sorted(workloads.map(expected.nameOf)));
    for (const workload of workloads) {
      const deployment = deploymentOf(workload);
      expect({ workload, ownPods: selects(deployment.spec.selector, podLabelsOf(workload)) }).toEqual({
        workload,
        ownPods: true,
      });
      expect({ workload, kind: podLabelsOf(workload)['whistle/kind'] }).toEqual({ workload, kind: kindOf(workload) });
      const service = named('Service', expected.nameOf(workload));
      expect({ workload, ports: service?.spec.ports, selects: selected(service?.spec.selector ?? {}) }).toEqual({
        workload,
        ports: [{ name: 'http', port: table.workloads[workload].port, targetPort: 'http' }],
        selects: [workload],
      });
      const metricsPort = { name: 'metrics', containerPort: expected.metricsPort };
      expect({ workload, ports: containerOf(workload).ports }).toEqual({
        workload,
        ports: [
          { name: 'http', containerPort: table.workloads[workload].port },
          ...(kindOf(workload) === 'service' ? [metricsPort] : []),
        ],
      });
      const metricsService = named('Service', `${expected.nameOf(workload)}-metrics`);
      if (kindOf(workload) === 'service')
        expect({
          workload,
          clusterIP: metricsService?.spec.clusterIP,
          ports: metricsService?.spec.ports,
          selects: selected(metricsService?.spec.selector ?? {}),
          label: metricsService?.metadata.labels?.['whistle/metrics'],
        }).toEqual({
          workload,
          clusterIP: 'None',
          ports: [{ name: 'metrics', port: expected.metricsPort, targetPort: 'metrics' }],
          selects: [workload],
          label: 'true',
        });
      else expect(metricsService).toBeUndefined();
      const budget = named('PodDisruptionBudget', expected.nameOf(workload));
      if (expected.podDisruptionBudget) {
        expect({ workload, selects: selected(budget?.spec.selector ?? {}) }).toEqual({ workload, selects: [workload] });
        expect(budget!.spec.maxUnavailable).toBe(1);
      } else expect(budget).toBeUndefined();
      if (expected.replicas)
        expect({ workload, replicas: deployment.spec.replicas }).toEqual({
          workload,
          replicas: expected.replicas[workload],
        });
    }
    if (!expected.podDisruptionBudget) expect(ofKind('PodDisruptionBudget')).toEqual([]);
    expect(sorted(ofKind('Service').map((o) => o.metadata.name))).toEqual(
      sorted([
        ...workloads.map(expected.nameOf),
        ...workloads.filter((w) => kindOf(w) === 'service').map((w) => `${expected.nameOf(w)}-metrics`),
      ]),
    );
  });

  it('when rendered, then every pod runs non-root (1000 for services, 101 for nginx), read-only, without capabilities or service account token, under seccomp RuntimeDefault', () => {
    for (const workload of workloads) {
      const pod = deploymentOf(workload).spec.template.spec;
      const user = kindOf(workload) === 'service' ? 1000 : 101;
      expect({ workload, pod: pod.securityContext, token: pod.automountServiceAccountToken }).toEqual({
        workload,
        pod: { runAsNonRoot: true, runAsUser: user, runAsGroup: user, seccompProfile: { type: 'RuntimeDefault' } },
        token: false,
      });
      for (const container of containersOf(deploymentOf(workload)))
        expect({ workload, container: container.securityContext }).toEqual({
          workload,
          container: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        });
      // A read-only root needs somewhere to write: /tmp, and nginx's conf.d (the image renders its templates there).
      const mounts = containerOf(workload).volumeMounts.map((m: any) => m.mountPath);
      expect(mounts).toContain('/tmp');
      if (kindOf(workload) === 'frontend') expect(mounts).toContain('/etc/nginx/conf.d');
    }
  });

  it('when rendered, then every container runs its image, is probed on /healthz and /readyz, pauses before SIGTERM and has resources', () => {
    for (const workload of workloads) {
      const container = containerOf(workload);
      expect({
        workload,
        startup: container.startupProbe?.httpGet,
        liveness: container.livenessProbe?.httpGet,
        readiness: container.readinessProbe?.httpGet,
        preStop: container.lifecycle?.preStop?.exec?.command,
      }).toEqual({
        workload,
        startup: { path: '/healthz', port: 'http' },
        liveness: { path: '/healthz', port: 'http' },
        readiness: { path: '/readyz', port: 'http' },
        preStop: ['sleep', '5'],
      });
      expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources.limits.memory).toEqual(expect.any(String));
      expect({ workload, image: container.image }).toEqual({ workload, image: expected.imageOf(workload) });
    }
  });

  it('when rendered, then there is no Secret and each workload gets exactly its credentials, only by secretKeyRef to its Secret', () => {
    expect(ofKind('Secret')).toEqual([]);
    const keyOf = expected.secretKeyOf ?? ((variable: string) => variable);
    for (const workload of workloads) {
      const env: any[] = containerOf(workload).env ?? [];
      const refs = env.filter((e) => e.valueFrom?.secretKeyRef);
      for (const e of refs)
        expect(e.valueFrom.secretKeyRef).toEqual({
          name: expected.secretOf(workload, e.name),
          key: keyOf(e.name),
          ...(expectedSecretEnv[workload].optional.includes(e.name) ? { optional: true } : {}),
        });
      const names = (optional: boolean) =>
        sorted(refs.filter((e) => Boolean(e.valueFrom.secretKeyRef.optional) === optional).map((e) => e.name));
      expect({ workload, required: names(false), optional: names(true) }).toEqual({
        workload,
        required: sorted(expectedSecretEnv[workload].required),
        optional: sorted(expectedSecretEnv[workload].optional),
      });
      // No credential by value, neither in the container's env nor in the ConfigMaps it reads.
      expect({ workload, plain: Object.keys(plainEnv(workload)).filter((key) => allSecretKeys.has(key)) }).toEqual({
        workload,
        plain: [],
      });
      for (const source of containerOf(workload).envFrom ?? [])
        expect(source).toEqual({ configMapRef: { name: expect.any(String) } });
    }
    for (const configMap of ofKind('ConfigMap'))
      expect({
        name: configMap.metadata.name,
        secret: Object.keys(configMap.data ?? {}).filter((key) => allSecretKeys.has(key)),
      }).toEqual({
        name: configMap.metadata.name,
        secret: [],
      });
  });

  it('when rendered, then each service gets its port, its metrics port, the public URL, the object store settings only with S3 credentials, and only incident its rate limits', () => {
    const limits = expected.incidentLimits ?? incidentLimitDefaults();
    expect(Object.keys(limits)).toHaveLength(4);
    for (const workload of workloads) {
      const env = plainEnv(workload);
      if (kindOf(workload) === 'frontend') {
        expect({ workload, port: env.NGINX_PORT, metricsPort: env.METRICS_PORT, url: env.PUBLIC_URL }).toEqual({
          workload,
          port: String(table.workloads[workload].port),
          metricsPort: undefined,
          url: undefined,
        });
        continue;
      }
      expect({
        workload,
        port: env.PORT,
        metricsPort: env.METRICS_PORT,
        url: env.PUBLIC_URL,
        mailFrom: env.MAIL_FROM,
      }).toEqual({
        workload,
        port: String(table.workloads[workload].port),
        metricsPort: String(expected.metricsPort),
        url: expected.publicUrl,
        mailFrom: expect.stringMatching(/^.+ <[^@\s]+@[^@\s]+>$/),
      });
      // The config schema refuses S3_BUCKET without S3 credentials.
      const s3Credentials = (containerOf(workload).env ?? []).some((e: any) => e.name === 'S3_SECRET_ACCESS_KEY');
      expect({ workload, bucket: 'S3_BUCKET' in env }).toEqual({ workload, bucket: s3Credentials });
      const given = Object.fromEntries(Object.entries(env).filter(([key]) => key in limits));
      expect({ workload, limits: given }).toEqual({ workload, limits: workload === 'incident' ? limits : {} });
    }
  });

  it('when rendered, then the shell mounts a remotes.json naming every remote of the table, and reaches each remote Service on its port', () => {
    const shell = deploymentOf('shell').spec.template.spec;
    const volume = shell.volumes.find((v: any) => v.name === 'remotes');
    expect(containerOf('shell').volumeMounts).toContainEqual({
      name: 'remotes',
      mountPath: '/etc/whistle',
      readOnly: true,
    });
    const configMap = named('ConfigMap', volume.configMap.name)!;
    const remotes = workloads.filter((w) => kindOf(w) === 'frontend' && w !== 'shell');
    // Keys are Module Federation names: the folder name with "-" -> "_" (tools/webpack).
    expect(JSON.parse(configMap.data!['remotes.json'])).toEqual(
      Object.fromEntries(remotes.map((w) => [w.replace(/-/g, '_'), `/remotes/${w}/mf-manifest.json`])),
    );
    const env = plainEnv('shell');
    for (const remote of remotes)
      expect(env[`${remote.toUpperCase().replace(/-/g, '_')}_UPSTREAM`]).toBe(
        `${expected.nameOf(remote)}:${table.workloads[remote].port}`,
      );
  });

  if (expected.ingress) {
    const ingress = expected.ingress;
    it('when rendered, then the Ingresses hold one Prefix path per route of the routing table, to the workload Service on its port', () => {
      expect(sorted(ofKind('Ingress').map((o) => o.metadata.name))).toEqual(
        sorted([ingress.names.main, ingress.names.file]),
      );
      const paths = ofKind('Ingress').flatMap((o) => o.spec.rules.flatMap((rule: any) => rule.http.paths));
      expect(sorted(paths.map((p: any) => p.path))).toEqual(sorted(table.routes.map((r) => r.prefix)));
      for (const route of table.routes) {
        const path = paths.find((p: any) => p.path === route.prefix);
        expect({ prefix: route.prefix, pathType: path.pathType, backend: path.backend }).toEqual({
          prefix: route.prefix,
          pathType: 'Prefix',
          backend: {
            service: { name: expected.nameOf(route.workload), port: { number: table.workloads[route.workload].port } },
          },
        });
      }
    });

    it('when rendered, then no Ingress routes a metrics Service or the metrics port (metrics stay inside the cluster)', () => {
      const backends = ofKind('Ingress').flatMap((o) => [
        ...(o.spec.defaultBackend ? [o.spec.defaultBackend] : []),
        ...o.spec.rules.flatMap((rule: any) => rule.http.paths.map((p: any) => p.backend)),
      ]);
      expect(backends.length).toBeGreaterThan(0);
      for (const { service } of backends) {
        const workload = workloads.find((w) => expected.nameOf(w) === service.name);
        expect({ service, routedPort: workload && table.workloads[workload].port }).toEqual({
          service: { name: service.name, port: { number: expect.any(Number) } },
          routedPort: service.port.number,
        });
        expect(service.port.number).not.toBe(expected.metricsPort);
      }
    });

    it.each(routingSamples)(
      'when ingress-nginx matches %s, then it reaches %s like the routing table says',
      (path, workload) => {
        expect(backendFor(ofKind('Ingress'), path)).toEqual({
          name: expected.nameOf(workload),
          port: table.workloads[workload].port,
          ingress: workload === 'file' ? ingress.names.file : ingress.names.main,
        });
      },
    );

    it('when rendered, then only the file routes accept an upload body (~33.6 MB), every other route a small one', () => {
      const bodySize = (name: string) =>
        bytesOf(named('Ingress', name)!.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-body-size']);
      const backends = (name: string) =>
        named('Ingress', name)!.spec.rules[0].http.paths.map((p: any) => p.backend.service.name);
      expect(backends(ingress.names.file)).toEqual(
        table.routes.filter((r) => r.workload === 'file').map(() => expected.nameOf('file')),
      );
      expect(backends(ingress.names.main)).not.toContain(expected.nameOf('file'));
      expect(bodySize(ingress.names.file)).toBeGreaterThanOrEqual(MAX_UPLOAD_BODY_BYTES);
      expect(bodySize(ingress.names.file)).toBeLessThan(MAX_UPLOAD_BODY_BYTES * 1.25);
      expect(bodySize(ingress.names.main)).toBeLessThan(MAX_UPLOAD_BODY_BYTES);
      expect(bodySize(ingress.names.main)).toBeGreaterThanOrEqual(1024 * 1024); // the services' JSON BODY_LIMIT (1mb)
    });

    it('when rendered, then every Ingress is for the public host, with its TLS Secret, and adds the security headers of a ConfigMap of the release', () => {
      for (const o of ofKind('Ingress')) {
        expect({
          name: o.metadata.name,
          className: o.spec.ingressClassName,
          hosts: o.spec.rules.map((r: any) => r.host),
          tls: o.spec.tls,
        }).toEqual({
          name: o.metadata.name,
          className: 'nginx',
          hosts: [ingress.host],
          tls: ingress.tlsSecret ? [{ hosts: [ingress.host], secretName: ingress.tlsSecret }] : undefined,
        });
        expect(o.metadata.annotations!['nginx.ingress.kubernetes.io/custom-headers']).toBe(
          `${ingress.headers.namespace}/${ingress.headers.name}`,
        );
      }
      expect(named('ConfigMap', ingress.headers.name)?.data).toEqual(
        expect.objectContaining({
          'Referrer-Policy': 'no-referrer',
          'X-Content-Type-Options': 'nosniff',
          'Strict-Transport-Security': expect.stringMatching(/^max-age=\d{7,}/),
        }),
      );
    });

    it('when rendered, then every Ingress connects to a pod within 5 s and waits for it 75 s, longer than the services wait for a stalled body or for S3; only uploads go unbuffered', () => {
      // The same on every release (Helm and kustomize alike): the service's own 408 or 503 reaches the client before
      // the controller's 504, and the file service's limits see the client's own pace.
      const proxying = Object.fromEntries(
        ofKind('Ingress').map((o) => {
          const annotations: Record<string, string> = o.metadata.annotations ?? {};
          const of = (name: string) => annotations[`nginx.ingress.kubernetes.io/${name}`];
          return [
            o.metadata.name,
            {
              connect: of('proxy-connect-timeout'),
              send: of('proxy-send-timeout'),
              read: of('proxy-read-timeout'),
              requestBuffering: of('proxy-request-buffering'),
            },
          ];
        }),
      );
      const timeouts = { connect: '5', send: '75', read: '75' };
      expect(proxying).toEqual({
        [ingress.names.main]: { ...timeouts, requestBuffering: undefined },
        [ingress.names.file]: { ...timeouts, requestBuffering: 'off' },
      });
      expect(Number(timeouts.read) * 1000).toBeGreaterThan(Math.max(BODY_IDLE_TIMEOUT_MS, S3_IDLE_TIMEOUT_MS));
      expect(Number(timeouts.read) * 1000).toBeLessThan(REQUEST_TIMEOUT_MS);
    });

    it('when rendered, then every Ingress turns the access log of ingress-nginx off: its lines hold the client address, the user agent and the full request line', () => {
      // Query strings such as the discloser's retrieval_id (GET /api/incident/discloser) or a reset link's token
      // must never be written next to an address. The services and the frontends' nginx log each request without them.
      for (const o of ofKind('Ingress')) {
        const annotations: Record<string, string> = o.metadata.annotations ?? {};
        expect({
          name: o.metadata.name,
          accessLog: annotations['nginx.ingress.kubernetes.io/enable-access-log'],
        }).toEqual({
          name: o.metadata.name,
          accessLog: 'false',
        });
        const snippets = Object.entries(annotations).filter(([key]) => key.endsWith('-snippet'));
        for (const [key, snippet] of snippets)
          expect({ key, logDirective: /\b(access_log|log_format)\b/.test(snippet) }).toEqual({
            key,
            logDirective: false,
          });
      }
    });
  } else {
    it('when rendered, then there is no Ingress', () => {
      expect(ofKind('Ingress')).toEqual([]);
    });
  }

  if (expected.networkPolicy) {
    it('when rendered, then NetworkPolicies admit services from the ingress controller and each other on their API port, frontends from the ingress controller and the shell, and Prometheus alone to the metrics port', () => {
      const policies = ofKind('NetworkPolicy');
      const services = workloads.filter((w) => kindOf(w) === 'service');
      const frontends = workloads.filter((w) => kindOf(w) === 'frontend');
      const policyFor = (members: string[]) =>
        policies.find((p) => sorted(selected(p.spec.podSelector)).join() === sorted(members).join());
      /** Workloads of the release a rule admits, after the ingress controller's namespace. */
      const admitted = (rule: any) => {
        const [fromNamespace, fromPods, ...rest] = rule.from;
        expect(rest).toEqual([]);
        expect(fromNamespace).toEqual({
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
        });
        expect(Object.keys(fromPods)).toEqual(['podSelector']);
        return sorted(selected(fromPods.podSelector));
      };
      expect(policies).toHaveLength(2);
      for (const policy of policies) expect(policy.spec.policyTypes).toEqual(['Ingress']);

      const [api, metrics, ...otherRules] = policyFor(services)!.spec.ingress;
      expect(otherRules).toEqual([]);
      expect(admitted(api)).toEqual(sorted(services));
      expect(api.ports).toEqual([{ port: 'http', protocol: 'TCP' }]);
      // One peer, namespace AND pods in the same entry (two entries would admit either).
      expect(metrics).toEqual({ from: [expected.metricsPeer], ports: [{ port: 'metrics', protocol: 'TCP' }] });

      const frontendRules = policyFor(frontends)!.spec.ingress;
      expect(frontendRules).toHaveLength(1);
      expect(admitted(frontendRules[0])).toEqual(['shell']);
    });
  } else {
    it('when rendered, then there is no NetworkPolicy', () => {
      expect(ofKind('NetworkPolicy')).toEqual([]);
    });
  }
}
