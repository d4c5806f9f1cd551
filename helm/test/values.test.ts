import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../../k8s/test/support';

const chartDir = join(repoRoot, 'helm/whistle');
const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8'));
const defaults = () => parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
const validate = ajv.compile(schema);
const errorsOf = (values: unknown) =>
  validate(values) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`);

describe('values.schema.json', () => {
  it('when values.yaml is validated against the schema, then it passes', () => {
    expect(errorsOf(defaults())).toEqual([]);
  });

  it('when an install sets publicUrl and existingSecret, then the values pass', () => {
    expect(
      errorsOf({ ...defaults(), publicUrl: 'https://whistle.example.com', existingSecret: 'whistle-secrets' }),
    ).toEqual([]);
  });

  it.each([
    ['publicUrl is not an origin', (v: any) => (v.publicUrl = 'whistle.example.com/app'), '/publicUrl'],
    ['a key is misspelt', (v: any) => (v.ingres = { enabled: true }), 'must NOT have additional properties'],
    [
      'a workload reads an unknown secret key',
      (v: any) => (v.workloads.auth.secretEnv = ['DB_PASSWORD']),
      '/workloads/auth/secretEnv/0',
    ],
    [
      'a workload reads an unknown optional secret key',
      (v: any) => (v.workloads.audit.optionalSecretEnv = ['TOKEN_PUBLIK_KEY']),
      '/workloads/audit/optionalSecretEnv/0',
    ],
    [
      'a secret key is put in plain env',
      (v: any) => (v.workloads.incident.env.TOKEN_SIGNING_KEY = 'x'),
      '/workloads/incident/env',
    ],
    [
      'a workload has no optionalSecretEnv',
      (v: any) => delete v.workloads.file.optionalSecretEnv,
      "must have required property 'optionalSecretEnv'",
    ],
    [
      'the upload body size is not a size',
      (v: any) => (v.ingress.fileProxyBodySize = '36 MB'),
      '/ingress/fileProxyBodySize',
    ],
    ['a workload runs as root', (v: any) => (v.workloads.shell.runAsUser = 0), '/workloads/shell/runAsUser'],
    [
      'a memory limit is not a quantity',
      (v: any) => (v.workloads.file.resources.limits.memory = '512 MB'),
      '/workloads/file/resources/limits/memory',
    ],
    ['the log level is unknown', (v: any) => (v.config.logLevel = 'verbose'), '/config/logLevel'],
  ])('when %s, then the schema refuses the values', (_case, mutate, expected) => {
    const values = defaults();
    mutate(values);
    expect(errorsOf(values).join('\n')).toContain(expected);
  });
});
