import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// `npm test` type-checks once, with the root tsconfig. That is only the same check as each package's own
// `typecheck` script while every package's tsconfig is the shared settings on folders the root includes.
const repoRoot = path.resolve(__dirname, '..', '..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));

const rootIncludes: string[] = readJson('tsconfig.json').include;
const workspaceGlobs: string[] = readJson('package.json').workspaces;

function workspaceFolders(): string[] {
  return workspaceGlobs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const parent = glob.slice(0, -2);
    return readdirSync(path.join(repoRoot, parent)).map((name) => `${parent}/${name}`);
  });
}

/** Whether a root include pattern (a path with `*` for one folder name) covers `folder`. */
function covered(folder: string): boolean {
  return rootIncludes.some((pattern) => new RegExp(`^${pattern.replace(/\*/g, '[^/]+')}$`).test(folder));
}

describe('type-check scope', () => {
  const withTsconfig = workspaceFolders().filter((folder) => existsSync(path.join(repoRoot, folder, 'tsconfig.json')));

  test('every workspace has a tsconfig', () => {
    expect(withTsconfig.length).toBeGreaterThan(15);
  });

  test.each(withTsconfig)('%s: the shared settings unchanged, on folders the root tsconfig checks', (folder) => {
    const tsconfig = readJson(`${folder}/tsconfig.json`);
    expect(path.join(folder, tsconfig.extends)).toBe('tsconfig.base.json');
    expect(tsconfig.compilerOptions).toBeUndefined();
    const includes: string[] = tsconfig.include;
    expect(includes.filter((include) => !covered(`${folder}/${include}`))).toEqual([]);
  });
});
