// k6 cannot be installed on our machines, so its scripts are checked here without it: each parses as the ES module
// k6 loads, imports only what k6 provides (its built-in modules, by the names they export) or files of this folder,
// and every threshold can be met by the requests the script makes (a threshold on a tag no request carries would
// pass without measuring anything). The shared shapes are run for real.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type Node } from 'acorn';
import { shape } from '../k6/shapes.js';

const k6Folder = path.join(__dirname, '..', 'k6');

/** k6's built-in modules (k6 v0.50+ and v1) and the names a script may import from each. */
const k6Modules: Record<string, readonly string[]> = {
  k6: ['check', 'fail', 'group', 'sleep', 'randomSeed'],
  'k6/http': ['default', 'get', 'post', 'put', 'patch', 'del', 'head', 'options', 'request', 'batch', 'file'],
  'k6/data': ['SharedArray'],
  'k6/crypto': ['randomBytes', 'sha256', 'sha512', 'hmac', 'createHash', 'createHMAC'],
  'k6/encoding': ['b64encode', 'b64decode'],
  'k6/metrics': ['Counter', 'Gauge', 'Rate', 'Trend'],
  'k6/execution': ['default'],
};

type AnyNode = Node & Record<string, unknown>;

/** Every node under `node`, depth first. */
function* nodes(node: unknown): Generator<AnyNode> {
  if (Array.isArray(node)) for (const item of node) yield* nodes(item);
  else if (node && typeof node === 'object' && typeof (node as { type?: unknown }).type === 'string') {
    yield node as AnyNode;
    for (const [key, value] of Object.entries(node)) if (key !== 'loc') yield* nodes(value);
  }
}

const keyOf = (property: AnyNode) => {
  const key = property.key as AnyNode;
  return (key.name ?? key.value) as string;
};

const scripts = readdirSync(k6Folder).filter((file) => file.endsWith('.js'));
const parsed = (file: string) =>
  parse(readFileSync(path.join(k6Folder, file), 'utf8'), { sourceType: 'module', ecmaVersion: 2020 });

describe.each(scripts)('k6/%s', (file) => {
  it('parses as an ES module and imports only what k6 provides or files of this folder', () => {
    const program = parsed(file);
    const imports = [...nodes(program.body)].filter((node) => node.type === 'ImportDeclaration');
    for (const declaration of imports) {
      const source = (declaration.source as AnyNode).value as string;
      if (source.startsWith('./')) {
        expect(scripts).toContain(source.slice(2));
        continue;
      }
      expect(Object.keys(k6Modules)).toContain(source);
      for (const specifier of declaration.specifiers as AnyNode[]) {
        const imported =
          specifier.type === 'ImportDefaultSpecifier' ? 'default' : ((specifier.imported as AnyNode)?.name as string);
        if (specifier.type !== 'ImportNamespaceSpecifier') expect(k6Modules[source]).toContain(imported);
      }
    }
    // No CommonJS and no Node: k6 has neither.
    const calls = [...nodes(program.body)].filter((node) => node.type === 'CallExpression');
    expect(calls.some((call) => (call.callee as AnyNode).name === 'require')).toBe(false);
  });
});

/** Scripts k6 runs (a default export), not the modules they share. */
const runnable = scripts.filter((file) => parsed(file).body.some((node) => node.type === 'ExportDefaultDeclaration'));

describe.each(runnable)('k6/%s', (file) => {
  it('has load shapes, thresholds on the error rate and p95, and a request for every threshold', () => {
    const program = parsed(file);
    const exported = program.body.filter((node) => node.type.startsWith('Export'));
    const options = [...nodes(exported)].find(
      (node) => node.type === 'VariableDeclarator' && (node.id as AnyNode).name === 'options',
    );
    const properties = ((options?.init as AnyNode).properties ?? []) as AnyNode[];
    // The shape comes from shapes.js, chosen by SHAPE.
    const spread = properties.find((property) => property.type === 'SpreadElement');
    expect(((spread?.argument as AnyNode)?.callee as AnyNode)?.name).toBe('shape');
    const thresholds = properties.find((property) => property.type === 'Property' && keyOf(property) === 'thresholds');
    const entries = ((thresholds?.value as AnyNode).properties as AnyNode[]).map((property) => ({
      metric: keyOf(property),
      conditions: ((property.value as AnyNode).elements as AnyNode[]).map((element) => element.value as string),
    }));
    expect(entries).toContainEqual({ metric: 'http_req_failed', conditions: [expect.stringMatching(/^rate<0\.\d+$/)] });
    const durations = entries.filter((entry) => entry.metric.startsWith('http_req_duration'));
    expect(durations.length).toBeGreaterThan(0);
    const strings = new Set(
      [...nodes(program.body)].filter((node) => node.type === 'Literal').map((node) => node.value),
    );
    for (const { metric, conditions } of durations) {
      expect(conditions).toContainEqual(expect.stringMatching(/^p\(95\)<\d+$/));
      // `http_req_duration{name:create}` only measures requests tagged name 'create'.
      const tag = /^http_req_duration\{name:([a-z_]+)\}$/.exec(metric)?.[1];
      expect(tag).toBeDefined();
      expect(strings).toContain(tag);
    }
  });
});

describe('k6/shapes.js', () => {
  it('gives smoke by default, the ramps of load and spike with the script’s own users, and refuses other names', () => {
    expect(shape(undefined, { steady: 50, peak: 300 })).toEqual({ vus: 2, duration: '30s' });
    expect(shape('load', { steady: 50, peak: 300 }).stages?.map((stage) => stage.target)).toEqual([50, 50, 0]);
    expect(shape('spike', { steady: 50, peak: 300 }).stages?.map((stage) => stage.target)).toEqual([300, 300, 0]);
    expect(() => shape('soak', { steady: 50, peak: 300 })).toThrow('SHAPE must be smoke, load or spike');
  });
});
