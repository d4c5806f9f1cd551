// A light static check of Go templates (helm cannot run here): balanced blocks, and every value, named template
// and chart file a template refers to exists. Not a template engine: it reads references, it does not render.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ChartFiles {
  /** template file name -> text */
  templates: Record<string, string>;
  values: unknown;
  /** true when a chart-relative path exists */
  fileExists: (path: string) => boolean;
}

export function readChart(chartDir: string, values: unknown): ChartFiles {
  const templates: Record<string, string> = {};
  for (const name of readdirSync(join(chartDir, 'templates')))
    templates[name] = readFileSync(join(chartDir, 'templates', name), 'utf8');
  return { templates, values, fileExists: (path) => existsSync(join(chartDir, path)) };
}

const actionPattern = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;

function actions(text: string): string[] {
  return [...text.matchAll(actionPattern)].map((m) => m[1]).filter((a) => !a.startsWith('/*'));
}

function lookup(root: unknown, path: string[]): { found: boolean; value?: unknown } {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !(key in (node as object))) return { found: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, value: node };
}

export function templateProblems({ templates, values, fileExists }: ChartFiles): string[] {
  const problems: string[] = [];
  const defined = new Set<string>();
  for (const text of Object.values(templates)) for (const m of text.matchAll(/define\s+"([^"]+)"/g)) defined.add(m[1]);

  for (const [file, text] of Object.entries(templates)) {
    const stack: string[] = [];
    for (const action of actions(text)) {
      const keyword = action.split(/\s+/)[0];
      if (['if', 'range', 'with', 'define', 'block'].includes(keyword)) stack.push(keyword);
      else if (keyword === 'end' && stack.pop() === undefined)
        problems.push(`${file}: {{ end }} without an open block`);
      else if (keyword === 'else' && stack.length === 0) problems.push(`${file}: {{ else }} outside a block`);
    }
    if (stack.length > 0) problems.push(`${file}: unclosed {{ ${stack.join(', ')} }}`);

    const all = actions(text).join('\n');
    for (const m of all.matchAll(/\.Values((?:\.[A-Za-z_]\w*)+)/g)) {
      const path = m[1].slice(1).split('.');
      if (!lookup(values, path).found) problems.push(`${file}: .Values.${path.join('.')} is not in values.yaml`);
    }
    // `range $key, $item := .Values.x`: every $item.field must exist in every entry of x.
    for (const m of all.matchAll(/range\s+\$\w+\s*,\s*\$(\w+)\s*:=\s*\$?\.Values((?:\.\w+)+)/g)) {
      const [, variable, mapPath] = m;
      const collection = lookup(values, mapPath.slice(1).split('.')).value;
      if (collection === null || typeof collection !== 'object') continue;
      for (const ref of all.matchAll(new RegExp(`\\$${variable}((?:\\.[A-Za-z_]\\w*)+)`, 'g'))) {
        const path = ref[1].slice(1).split('.');
        for (const [key, entry] of Object.entries(collection as Record<string, unknown>)) {
          if (!lookup(entry, path).found)
            problems.push(`${file}: $${variable}.${path.join('.')} is missing in .Values${mapPath}.${key}`);
        }
      }
    }
    for (const m of all.matchAll(/(?:include|template)\s+"([^"]+)"/g)) {
      if (!defined.has(m[1])) problems.push(`${file}: template "${m[1]}" is not defined`);
    }
    for (const m of all.matchAll(/\$?\.Template\.BasePath\s+"\/([^"]+)"/g)) {
      if (!(m[1] in templates)) problems.push(`${file}: templates/${m[1]} does not exist`);
    }
    for (const m of all.matchAll(/\.Files\.Get\s+"([^"]+)"/g)) {
      if (!fileExists(m[1])) problems.push(`${file}: chart file ${m[1]} does not exist`);
    }
  }
  return problems;
}
