// helm/whistle/README.md's parameter table is generated from values.schema.json (scripts/chart-readme.mjs): it must
// be current, and the check must notice a schema the table does not reflect.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../k8s/test/support';
import { chartDir } from './helm';

const script = join(repoRoot, 'scripts/chart-readme.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: repoRoot, encoding: 'utf8' });

describe('helm/whistle README parameter table', () => {
  it('when checked, then the README holds the table values.schema.json and values.yaml make today', () => {
    const result = run('--check');
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    const readme = readFileSync(join(chartDir, 'README.md'), 'utf8');
    for (const row of ['`httpRoute.parentRefs`', '`workloads.<name>.autoscaling.enabled`', '`ingress.className`'])
      expect(readme).toContain(row);
  });

  it('when the schema changes, then the check fails until the script rewrites the table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'whistle-chart-readme-'));
    try {
      for (const file of ['README.md', 'values.yaml', 'values.schema.json'])
        copyFileSync(join(chartDir, file), join(dir, file));
      const schema = JSON.parse(readFileSync(join(dir, 'values.schema.json'), 'utf8'));
      schema.properties.tests.properties.enabled.description = 'a description the table does not have yet';
      writeFileSync(join(dir, 'values.schema.json'), JSON.stringify(schema));

      const stale = run('--check', '--chart', dir);
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('README.md is out of date: run node scripts/chart-readme.mjs');

      expect(run('--chart', dir).status).toBe(0);
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('a description the table does not have yet');
      expect(run('--check', '--chart', dir).status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
