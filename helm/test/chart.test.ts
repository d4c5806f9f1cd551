import { lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  expectedSecretEnv,
  incidentLimitDefaults,
  parseManifests,
  readRoutingTable,
  repoRoot,
} from '../../k8s/test/support';
import { readChart, templateProblems } from './template-check';

const chartDir = join(repoRoot, 'helm/whistle');
const values = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
const chart = readChart(chartDir, values);
const table = readRoutingTable();

describe('helm chart whistle', () => {
  it('when Chart.yaml is read, then it is one application chart (v2) without subcharts to download', () => {
    const meta = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8'));
    expect(meta).toEqual(expect.objectContaining({ apiVersion: 'v2', name: 'whistle', type: 'application' }));
    expect(meta.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(meta.dependencies).toBeUndefined();
    expect(values.postgresql.enabled).toBe(false);
    expect(values.rabbitmq.enabled).toBe(false);
  });

  it('when files/routes.json is followed, then it is a relative symlink to the contracts routing table', () => {
    const link = join(chartDir, 'files/routes.json');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../../../packages/contracts/src/routing/routes.json');
    expect(realpathSync(link)).toBe(realpathSync(join(repoRoot, 'packages/contracts/src/routing/routes.json')));
    expect(JSON.parse(readFileSync(link, 'utf8'))).toEqual(table);
  });

  it('when the templates are read, then blocks are balanced and every value, named template and chart file they use exists', () => {
    expect(Object.keys(chart.templates)).toContain('_helpers.tpl');
    expect(templateProblems(chart)).toEqual([]);
  });

  it('when a template uses a value, a workload field or a named template that does not exist, then the check reports it', () => {
    const broken = {
      ...chart,
      templates: {
        ...chart.templates,
        'broken.yaml': [
          '{{- if .Values.ingress.enabld }}',
          '{{- range $name, $w := .Values.workloads }}{{ $w.image.repo }}{{ end }}',
          '{{ include "whistle.nope" . }}{{ .Files.Get "files/nope.json" }}',
        ].join('\n'),
      },
    };
    expect(templateProblems(broken)).toEqual([
      'broken.yaml: unclosed {{ if }}',
      'broken.yaml: .Values.ingress.enabld is not in values.yaml',
      ...Object.keys(values.workloads).map(
        (name) => `broken.yaml: $w.image.repo is missing in .Values.workloads.${name}`,
      ),
      'broken.yaml: template "whistle.nope" is not defined',
      'broken.yaml: chart file files/nope.json does not exist',
    ]);
  });

  it('when the Ingress template is read, then it ranges over the routes of files/routes.json with pathType Prefix and table ports', () => {
    const ingress = chart.templates['ingress.yaml'];
    expect(ingress).toContain('{{- $table := .Files.Get "files/routes.json" | fromJson }}');
    expect(ingress).toContain('{{- range $table.routes }}');
    expect(ingress).toMatch(/- path: \{\{ \.prefix \}\}\n\s+pathType: Prefix\n/);
    expect(ingress).toContain('name: {{ $fullname }}-{{ .workload }}');
    expect(ingress).toContain('number: {{ (index $table.workloads .workload).port }}');
    expect(ingress).toContain('nginx.ingress.kubernetes.io/custom-headers');
    expect(values.ingress.responseHeaders['Referrer-Policy']).toBe('no-referrer');
  });

  it('when the workloads of values.yaml are listed, then they are exactly the workloads of the routing table', () => {
    expect(Object.keys(values.workloads).sort()).toEqual(Object.keys(table.workloads).sort());
    for (const [name, workload] of Object.entries<any>(values.workloads)) {
      expect({ name, runAsUser: workload.runAsUser }).toEqual({
        name,
        runAsUser: table.workloads[name].kind === 'service' ? 1000 : 101,
      });
    }
  });

  it('when publicUrl or existingSecret are missing, then rendering fails through `required`', () => {
    const helpers = chart.templates['_helpers.tpl'];
    expect(helpers).toMatch(/required "publicUrl is required[^"]*" \.Values\.publicUrl/);
    expect(helpers).toMatch(/required "existingSecret is required[^"]*" \.Values\.existingSecret/);
    expect(chart.templates['configmap.yaml']).toContain('include "whistle.publicUrl" .');
    expect(chart.templates['deployments.yaml']).toContain('(include "whistle.existingSecret" $)');
  });

  it('when a pod is templated, then it gets the hardened security context and probes on /healthz and /readyz', () => {
    expect(values.podSecurityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(values.containerSecurityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    const deployments = chart.templates['deployments.yaml'];
    expect(deployments).toContain('{{- toYaml $.Values.podSecurityContext | nindent 8 }}');
    expect(deployments).toContain('{{- toYaml $.Values.containerSecurityContext | nindent 12 }}');
    expect(deployments).toMatch(/livenessProbe:\n\s+httpGet: \{ path: \/healthz, port: http \}/);
    expect(deployments).toMatch(/readinessProbe:\n\s+httpGet: \{ path: \/readyz, port: http \}/);
    expect(deployments).toContain('automountServiceAccountToken: false');
  });

  it('when the chart is read, then it creates no Secret and values.yaml holds no secret value', () => {
    for (const [file, text] of Object.entries(chart.templates))
      expect({ file, secret: /kind:\s*Secret\b/.test(text) }).toEqual({ file, secret: false });
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

  it('when both deployments are compared, then hardening, probe timings and users agree between the chart and k8s/base', () => {
    for (const [name, workload] of Object.entries<any>(values.workloads)) {
      const [deployment] = parseManifests(readFileSync(join(repoRoot, `k8s/base/workloads/${name}.yaml`), 'utf8'));
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      expect({ name, pod: pod.securityContext }).toEqual({
        name,
        pod: { ...values.podSecurityContext, runAsUser: workload.runAsUser, runAsGroup: workload.runAsUser },
      });
      expect(container.securityContext).toEqual(values.containerSecurityContext);
      const timings = ({ httpGet: _ignored, ...rest }: any) => rest;
      expect(timings(container.startupProbe)).toEqual(values.probes.startup);
      expect(timings(container.livenessProbe)).toEqual(values.probes.liveness);
      expect(timings(container.readinessProbe)).toEqual(values.probes.readiness);
      expect(pod.terminationGracePeriodSeconds).toBe(values.terminationGracePeriodSeconds);
      expect(container.ports).toEqual([{ name: 'http', containerPort: table.workloads[name].port }]);
    }
  });

  it('when both deployments are compared, then each workload gets the same secret keys, required and optional, in the chart and in k8s/base', () => {
    for (const [name, workload] of Object.entries<any>(values.workloads)) {
      const [deployment] = parseManifests(readFileSync(join(repoRoot, `k8s/base/workloads/${name}.yaml`), 'utf8'));
      const refs = (deployment.spec.template.spec.containers[0].env ?? []).filter(
        (e: any) => e.valueFrom?.secretKeyRef,
      );
      const keys = (optional: boolean) =>
        refs
          .filter((e: any) => Boolean(e.valueFrom.secretKeyRef.optional) === optional)
          .map((e: any) => e.name)
          .sort();
      expect({
        name,
        required: [...workload.secretEnv].sort(),
        optional: [...workload.optionalSecretEnv].sort(),
      }).toEqual({
        name,
        required: keys(false),
        optional: keys(true),
      });
    }
  });

  it('when values.yaml is read, then each workload gets exactly its expected secret keys (k8s/test/support.ts expectedSecretEnv)', () => {
    for (const [name, workload] of Object.entries<any>(values.workloads)) {
      expect({
        name,
        required: [...workload.secretEnv].sort(),
        optional: [...workload.optionalSecretEnv].sort(),
      }).toEqual({
        name,
        required: [...expectedSecretEnv[name].required].sort(),
        optional: [...expectedSecretEnv[name].optional].sort(),
      });
    }
  });

  it('when the deployments template is read, then optionalSecretEnv keys are rendered with optional: true and secretEnv keys without', () => {
    const deployments = chart.templates['deployments.yaml'];
    const block = (list: string) =>
      deployments.split(`{{- range $key := $w.${list} }}`)[1]?.split('{{- end }}\n            {{- /*')[0] ?? '';
    expect(block('secretEnv')).toContain('secretKeyRef:');
    expect(block('secretEnv')).not.toContain('optional: true');
    expect(deployments.split('{{- range $key := $w.optionalSecretEnv }}')[1]).toMatch(
      /secretKeyRef:\n(\s+.*\n){2}\s+optional: true\n/,
    );
    expect(deployments).toContain('{{- range $key, $value := $w.env }}');
  });

  it('when both deployments are compared, then the incident rate limits agree between the chart, k8s/base and the service defaults', () => {
    const defaults = incidentLimitDefaults();
    expect(Object.keys(defaults).sort()).toEqual([
      'REPORT_LIMIT_PER_CLIENT',
      'REPORT_LIMIT_PER_COMPANY',
      'RETRIEVAL_FAILURE_LIMIT_PER_COMPANY',
      'RETRIEVAL_LIMIT_PER_CLIENT',
    ]);
    expect(values.workloads.incident.env).toEqual(defaults);
    const kustomization = parse(readFileSync(join(repoRoot, 'k8s/base/kustomization.yaml'), 'utf8'));
    const generator = kustomization.configMapGenerator.find((g: any) => g.name === 'whistle-incident');
    expect(Object.fromEntries(generator.literals.map((l: string) => l.split('=')))).toEqual(defaults);
    for (const [name, workload] of Object.entries<any>(values.workloads))
      if (name !== 'incident') expect({ name, env: workload.env }).toEqual({ name, env: {} });
  });

  it('when the Ingress template is read, then the file routes get their own Ingress with the upload body size, the others the small one', () => {
    const ingress = chart.templates['ingress.yaml'];
    expect(ingress).toContain('(dict "suffix" "" "file" false "bodySize" .Values.ingress.proxyBodySize)');
    expect(ingress).toContain('(dict "suffix" "-file" "file" true "bodySize" .Values.ingress.fileProxyBodySize)');
    expect(ingress).toContain('{{- if eq (eq .workload "file") $part.file }}');
    expect(ingress).toContain('nginx.ingress.kubernetes.io/proxy-body-size: {{ $part.bodySize | quote }}');
    const [committedMain, committedFile] = parseManifests(
      readFileSync(join(repoRoot, 'k8s/base/ingress.yaml'), 'utf8'),
    );
    expect(values.ingress.proxyBodySize).toBe(
      committedMain.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-body-size'],
    );
    expect(values.ingress.fileProxyBodySize).toBe(
      committedFile.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-body-size'],
    );
  });
});
