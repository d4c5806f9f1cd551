// The chart's optional monitoring objects (values metrics.*): off by default; switched on, a ServiceMonitor that
// scrapes exactly the release's metrics Services, a PrometheusRule whose expressions parse and name only series the
// services expose (packages/service-kit/src/metrics/metrics.ts), and a Grafana dashboard whose queries do the same. Schema validation of what renders is in chart.test.ts (release-checks).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsRegistry } from '../../packages/service-kit/src/metrics/metrics';
import { K8sObject, readRoutingTable, repoRoot, selects } from '../../k8s/test/support';
import { chartDir, renderChart } from './helm';
import { analysePromql, matches } from './promql';

const table = readRoutingTable();
const services = Object.keys(table.workloads).filter((w) => table.workloads[w].kind === 'service');
const required = { publicUrl: 'https://whistle.example.com', existingSecret: 'whistle-secrets' };

/** Labels Prometheus (with a ServiceMonitor of the Prometheus Operator) adds to every series of a target. */
const targetLabels = ['job', 'instance', 'namespace', 'service', 'pod', 'container', 'endpoint'];

/** Series the services expose, with their labels: read from the registry of metrics.ts itself. */
function serviceSeries(): Map<string, string[]> {
  const series = new Map<string, string[]>();
  for (const metric of metricsRegistry.getMetricsAsArray() as unknown as {
    name: string;
    type: string;
    labelNames: string[];
  }[]) {
    const labels = [...metric.labelNames, ...targetLabels];
    if (metric.type === 'histogram') {
      series.set(`${metric.name}_bucket`, [...labels, 'le']);
      series.set(`${metric.name}_sum`, labels);
      series.set(`${metric.name}_count`, labels);
    } else series.set(metric.name, labels);
  }
  series.set('up', targetLabels);
  return series;
}

const knownSeries = serviceSeries();

/** Problems of one query: syntax, ranges, and any series or label the services do not have. */
function queryProblems(expr: string): string[] {
  const facts = analysePromql(expr);
  const problems = [...facts.errors];
  const usedLabels = new Set(['le']);
  for (const { metric, matchers } of facts.selectors) {
    const labels = knownSeries.get(metric);
    if (!labels) {
      problems.push(`unknown series ${metric}`);
      continue;
    }
    labels.forEach((label) => usedLabels.add(label));
    for (const { label } of matchers) if (!labels.includes(label)) problems.push(`${metric} has no label ${label}`);
  }
  for (const label of facts.groupingLabels)
    if (!usedLabels.has(label)) problems.push(`no series of the query has the label ${label}`);
  return problems;
}

describe('PromQL checks of the deployment tests', () => {
  it('when the services are read, then every one consumes events under its own name (the queues the alerts watch)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(join(dir, entry.name))
          : entry.name.endsWith('.ts')
            ? [readFileSync(join(dir, entry.name), 'utf8')]
            : [],
      );
    for (const service of services)
      expect({ service, consumes: sources(join(repoRoot, 'services', service, 'src')).join('\n') }).toEqual({
        service,
        consumes: expect.stringContaining(`consumer: '${service}'`),
      });
  });

  it('when the metrics of metrics.ts are listed, then none is labelled by a tenant, a user or an id', () => {
    for (const [name, labels] of serviceSeries())
      expect({
        name,
        labels: labels.filter((label) => /tenant|company|user|email|id$|address|ip$/i.test(label)),
      }).toEqual({ name, labels: [] });
  });

  it.each<[string, string, RegExp]>([
    ['a syntax error', 'sum by (job (whistle_mails_total)', /syntax error/],
    ['a misspelt series', 'sum(rate(whistle_http_requests_total[5m]))', /unknown series whistle_http_requests_total/],
    ['a label the metric lacks', 'whistle_mails_total{tenant="acme"}', /whistle_mails_total has no label tenant/],
    [
      'a grouping label no series has',
      'sum by (company) (whistle_mails_total)',
      /no series of the query has the label company/,
    ],
    ['rate() of an instant vector', 'rate(whistle_mails_total)', /rate\(\) needs a range vector/],
  ])('when a query has %s, then the check reports it', (_case, expr, problem) => {
    expect(queryProblems(expr).join('\n')).toMatch(problem);
  });

  it('when a query is sound, then the check finds nothing', () => {
    expect(
      queryProblems(
        'histogram_quantile(0.95, sum by (job, le) (rate(whistle_http_request_duration_seconds_bucket{namespace="w",status=~"5.."}[5m]))) > 1',
      ),
    ).toEqual([]);
  });
});

describe('helm/whistle monitoring, values as they come (off)', () => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = renderChart({ values: required });
  });

  it('when rendered, then there is no ServiceMonitor, PrometheusRule or dashboard (no CRD needed to install)', () => {
    expect(objects.filter((o) => o.apiVersion.startsWith('monitoring.coreos.com/'))).toEqual([]);
    expect(objects.filter((o) => o.metadata.labels?.grafana_dashboard !== undefined)).toEqual([]);
  });
});

const metricsServiceNames = (fullname: string) => services.map((s) => `${fullname}-${s}-metrics`).sort();

describe('helm/whistle monitoring with every monitoring object', () => {
  const exchange = 'acme.events';
  const thresholds = { errorRatio: 0.02, latencyP95Seconds: 0.75, outboxAgeSeconds: 120, diskFreeBytes: 2147483648 };
  let objects: K8sObject[];
  beforeAll(() => {
    objects = renderChart({
      release: 'acme',
      namespace: 'reports',
      values: {
        ...required,
        fullnameOverride: 'speakup',
        config: { amqpExchange: exchange },
        metrics: {
          serviceMonitor: { enabled: true, interval: '15s', labels: { release: 'kube-prometheus-stack' } },
          prometheusRule: {
            enabled: true,
            labels: { release: 'kube-prometheus-stack' },
            thresholds,
          },
          grafanaDashboard: { enabled: true, annotations: { grafana_folder: 'Whistle' } },
        },
      },
    });
  });
  const one = (kind: string) => {
    const found = objects.filter((o) => o.kind === kind);
    expect(found).toHaveLength(1);
    return found[0] as K8sObject & { spec: any };
  };
  const rules = () => one('PrometheusRule').spec.groups.flatMap((g: any) => g.rules) as any[];

  it('when rendered, then one ServiceMonitor scrapes the metrics port of exactly the metrics Services of the release, job named after the service', () => {
    const monitor = one('ServiceMonitor');
    expect(monitor.metadata.labels).toEqual(expect.objectContaining({ release: 'kube-prometheus-stack' }));
    const scraped = objects.filter((o) => o.kind === 'Service' && selects(monitor.spec.selector, o.metadata.labels!));
    expect(scraped.map((s) => s.metadata.name).sort()).toEqual(metricsServiceNames('speakup'));
    expect(monitor.spec.endpoints).toEqual([
      { port: 'metrics', path: '/metrics', interval: '15s', scrapeTimeout: '10s' },
    ]);
    for (const service of scraped) {
      expect(service.spec.ports.map((p: any) => p.name)).toEqual(['metrics']);
      expect(`speakup-${service.metadata.labels![monitor.spec.jobLabel]}-metrics`).toBe(service.metadata.name);
    }
  });

  it('when rendered, then the PrometheusRule holds the alerts of docs/operations.md, each with a severity, a summary and its runbook there', () => {
    const rule = one('PrometheusRule');
    expect(rule.metadata.labels).toEqual(expect.objectContaining({ release: 'kube-prometheus-stack' }));
    const alerts = rules().map((r) => r.alert);
    expect([...new Set(alerts)].sort()).toEqual(
      [
        'WhistleHighErrorRate',
        'WhistleSlowRequests',
        'WhistleOutboxStuck',
        'WhistleEventsDeadLettered',
        'WhistleMailsFailing',
        'WhistleRetrievalFailureSurge',
        'WhistleDatabasePoolExhausted',
        'WhistleConsumerMissing',
        'WhistleDeadLetterQueueNotEmpty',
        'WhistleQueueWithoutConsumer',
        'WhistleDiskLowOnSpace',
      ].sort(),
    );
    expect(alerts.filter((a) => a === 'WhistleConsumerMissing')).toHaveLength(services.length);
    const operations = readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8');
    const alertsSection = operations.split(/^## Alerts$/m)[1]?.split(/^## /m)[0] ?? '';
    for (const r of rules()) {
      expect({ alert: r.alert, severity: r.labels.severity }).toEqual({
        alert: r.alert,
        severity: expect.stringMatching(/^(critical|warning)$/),
      });
      expect(r.annotations).toEqual({
        summary: expect.any(String),
        description: expect.any(String),
        runbook: `docs/operations.md, Alerts, ${r.alert}`,
      });
      expect({ alert: r.alert, runbook: alertsSection.includes(`### ${r.alert}\n`) }).toEqual({
        alert: r.alert,
        runbook: true,
      });
    }
  });

  it('when rendered, then every alert expression parses and names only series and labels the services expose', () => {
    for (const r of rules())
      expect({ alert: r.alert, problems: queryProblems(r.expr) }).toEqual({ alert: r.alert, problems: [] });
  });

  it("when rendered, then the services' alerts read this release's targets only: its namespace and its metrics Services", () => {
    const rendered = objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name);
    const ours = metricsServiceNames('speakup');
    for (const r of rules()) {
      for (const { metric, matchers } of analysePromql(r.expr).selectors) {
        const namespace = matchers.find((m) => m.label === 'namespace');
        const service = matchers.find((m) => m.label === 'service');
        expect({ alert: r.alert, metric, namespace }).toEqual({
          alert: r.alert,
          metric,
          namespace: { label: 'namespace', op: '=', value: 'reports' },
        });
        const selected = [...rendered, 'speakup-eu-auth-metrics', 'whistle-auth-metrics'].filter((name) =>
          matches(service!, name),
        );
        if (r.alert === 'WhistleConsumerMissing') expect(selected).toEqual([`speakup-${r.labels.consumer}-metrics`]);
        else expect({ alert: r.alert, selected: selected.sort() }).toEqual({ alert: r.alert, selected: ours });
      }
    }
  });

  it('when rendered, then the thresholds of the values are those of the alerts', () => {
    const exprOf = (alert: string) => rules().find((r) => r.alert === alert).expr as string;
    expect(exprOf('WhistleHighErrorRate')).toMatch(new RegExp(`> ${thresholds.errorRatio}$`));
    expect(exprOf('WhistleSlowRequests')).toMatch(new RegExp(`> ${thresholds.latencyP95Seconds}$`));
    expect(exprOf('WhistleOutboxStuck')).toMatch(new RegExp(`> ${thresholds.outboxAgeSeconds}$`));
    // Bytes as an integer: a float (2.147483648e+09) would still parse, but reads badly in the rule.
    expect(exprOf('WhistleDiskLowOnSpace')).toMatch(
      new RegExp(`^min by \\(.*\\) \\(whistle_disk_free_bytes\\{.*\\}\\) < ${thresholds.diskFreeBytes}$`),
    );
  });

  it('when rendered, then a ConfigMap for the Grafana sidecar holds the dashboard of the chart, whose every query parses and names series the services expose', () => {
    const configMaps = objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1');
    expect(configMaps).toHaveLength(1);
    expect(configMaps[0].metadata.annotations).toEqual({ grafana_folder: 'Whistle' });
    const json = configMaps[0].data!['whistle.json'];
    expect(json).toBe(readFileSync(join(chartDir, 'dashboards/whistle.json'), 'utf8').trimEnd());
    const dashboard = JSON.parse(json);
    expect(dashboard).toEqual(expect.objectContaining({ uid: 'whistle-services', title: expect.any(String) }));
    const panels = (dashboard.panels as any[]).filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThan(0);
    const used = new Set<string>();
    for (const panel of panels) {
      expect({ panel: panel.title, targets: panel.targets?.length ?? 0 }).toEqual({
        panel: panel.title,
        targets: expect.any(Number),
      });
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const target of panel.targets) {
        // Grafana substitutes its variables before Prometheus sees the query.
        const expr = (target.expr as string)
          .replaceAll('$__rate_interval', '5m')
          .replaceAll('$namespace', 'reports')
          .replaceAll('$job', '.+');
        expect({ panel: panel.title, problems: queryProblems(expr) }).toEqual({ panel: panel.title, problems: [] });
        analysePromql(expr).selectors.forEach((s) => used.add(s.metric.replace(/_(bucket|sum|count)$/, '')));
      }
    }
    // Every metric of metrics.ts (not the default process ones) has a panel.
    const own = (metricsRegistry.getMetricsAsArray() as unknown as { name: string }[])
      .map((m) => m.name)
      .filter((name) => !/^whistle_(process|nodejs)_/.test(name));
    expect(own.filter((name) => !used.has(name))).toEqual([]);
  });
});
