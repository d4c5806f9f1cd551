// Values helm refuses before rendering anything: values.schema.json (helm validates it on every install, upgrade
// and template) and the chart's own `required` / `fail` guards. Each case is one rule that protects an install.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { chartDir, helmTemplate } from './helm';

const required = { publicUrl: 'https://whistle.example.com', existingSecret: 'whistle-secrets' };
const defaults = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));

describe('values refused by helm/whistle', () => {
  it('when publicUrl and existingSecret are set, then helm renders the chart', () => {
    const result = helmTemplate({ values: required });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it.each<[string, unknown, string]>([
    [
      'publicUrl is not set',
      { existingSecret: 'whistle-secrets' },
      'publicUrl is required: the public origin of Whistle, e.g. https://whistle.example.com',
    ],
    [
      'existingSecret is not set',
      { publicUrl: 'https://whistle.example.com' },
      'existingSecret is required: the name of a Secret you created with the credentials',
    ],
    [
      'publicUrl is not an origin',
      { ...required, publicUrl: 'whistle.example.com/app' },
      '- publicUrl: Does not match pattern',
    ],
    [
      'publicUrl has a path',
      { ...required, publicUrl: 'https://whistle.example.com/app' },
      '- publicUrl: Does not match pattern',
    ],
    ['a key is misspelt', { ...required, ingres: { enabled: true } }, 'Additional property ingres is not allowed'],
    [
      'a workload key is misspelt',
      { ...required, workloads: { auth: { replicas: 3 } } },
      '- workloads.auth: Additional property replicas is not allowed',
    ],
    [
      'the image tag is a number (YAML reads 1.0 as one)',
      { ...required, image: { tag: 1.0 } },
      '- image.tag: Invalid type. Expected: string, given: integer',
    ],
    [
      'a workload image tag is a number',
      { ...required, workloads: { file: { image: { tag: 0.2 } } } },
      '- workloads.file.image.tag: Invalid type. Expected: string, given: number',
    ],
    [
      'the replica count is text',
      { ...required, workloads: { auth: { replicaCount: '3' } } },
      '- workloads.auth.replicaCount: Invalid type',
    ],
    [
      'a workload reads an unknown secret key',
      { ...required, workloads: { auth: { secretEnv: ['DB_PASSWORD'] } } },
      '- workloads.auth.secretEnv.0: workloads.auth.secretEnv.0 must be one of the following',
    ],
    [
      'a workload reads an unknown optional secret key',
      { ...required, workloads: { audit: { optionalSecretEnv: ['TOKEN_PUBLIK_KEY'] } } },
      '- workloads.audit.optionalSecretEnv.0: workloads.audit.optionalSecretEnv.0 must be one of the following',
    ],
    [
      'a secret key is put in plain env',
      { ...required, workloads: { incident: { env: { TOKEN_SIGNING_KEY: 'x' } } } },
      '- workloads.incident.env: Must not validate the schema (not)',
    ],
    [
      'a workload has no optionalSecretEnv',
      { ...required, workloads: { file: { optionalSecretEnv: null } } },
      '- workloads.file: optionalSecretEnv is required',
    ],
    [
      'a key is both required and optional',
      { ...required, workloads: { file: { optionalSecretEnv: ['TOKEN_PUBLIC_KEY', 'AMQP_URL'] } } },
      'workloads.file: AMQP_URL is in both secretEnv and optionalSecretEnv',
    ],
    [
      'a workload runs as root',
      { ...required, workloads: { shell: { runAsUser: 0 } } },
      '- workloads.shell.runAsUser: Must be greater than or equal to 1',
    ],
    [
      'a memory limit is not a quantity',
      { ...required, workloads: { file: { resources: { limits: { memory: '512 MB' } } } } },
      '- workloads.file.resources.limits.memory: Does not match pattern',
    ],
    [
      'the log level is unknown',
      { ...required, config: { logLevel: 'verbose' } },
      '- config.logLevel: config.logLevel must be one of the following',
    ],
    [
      'the upload body size is not a size',
      { ...required, ingress: { fileProxyBodySize: '36 MB' } },
      '- ingress.fileProxyBodySize: Does not match pattern',
    ],
    [
      'a bundled database is asked for',
      { ...required, postgresql: { enabled: true } },
      'this chart bundles no database or broker',
    ],
    [
      'an annotation turns the Ingress access log back on',
      { ...required, ingress: { annotations: { 'nginx.ingress.kubernetes.io/enable-access-log': 'true' } } },
      'ingress.annotations: nginx.ingress.kubernetes.io/enable-access-log stays "false"',
    ],
    [
      'a snippet annotation writes its own access log',
      {
        ...required,
        ingress: {
          annotations: {
            'nginx.ingress.kubernetes.io/configuration-snippet': 'access_log /var/log/nginx/whistle.log combined;',
          },
        },
      },
      'ingress.annotations: nginx.ingress.kubernetes.io/configuration-snippet may not set access_log or log_format',
    ],
    [
      'a workload is not in the routing table',
      { ...required, workloads: { reports: defaults.workloads.incident } },
      'workloads.reports is not a workload of the routing table',
    ],
  ])('when %s, then helm refuses the values', (_case, values, message) => {
    const result = helmTemplate({ values });
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('when the cluster is older than Kubernetes 1.25 (Chart.yaml kubeVersion), then helm refuses to render', () => {
    const result = helmTemplate({ values: required, kubeVersion: '1.24.0' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('chart requires kubeVersion: >=1.25.0-0');
  });
});
