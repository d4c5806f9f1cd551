// What a real render cannot see: helm renders a value missing from values.yaml as empty, without an error (lint
// --strict included), so a misspelt `.Values.ingress.enabld` just turns a feature off. This reads every `.Values.x`
// (and `$w.x` of a `range $name, $w := .Values.<map>`) the templates refer to and reports those values.yaml lacks.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Template file name -> text, `_helpers.tpl` included. */
export function readTemplates(chartDir: string): Record<string, string> {
  const dir = join(chartDir, 'templates');
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

const actionPattern = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;

function lookup(root: unknown, path: string[]): { found: boolean; value?: unknown } {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !(key in (node as object))) return { found: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, value: node };
}

export function valueReferenceProblems(templates: Record<string, string>, values: unknown): string[] {
  const problems: string[] = [];
  for (const [file, text] of Object.entries(templates)) {
    const code = [...text.matchAll(actionPattern)]
      .map((m) => m[1])
      .filter((action) => !action.startsWith('/*'))
      .join('\n');
    for (const m of code.matchAll(/\.Values((?:\.[A-Za-z_]\w*)+)/g)) {
      const path = m[1].slice(1).split('.');
      if (!lookup(values, path).found) problems.push(`${file}: .Values.${path.join('.')} is not in values.yaml`);
    }
    for (const m of code.matchAll(/range\s+\$\w+\s*,\s*\$(\w+)\s*:=\s*\$?\.Values((?:\.\w+)+)/g)) {
      const [, variable, mapPath] = m;
      const collection = lookup(values, mapPath.slice(1).split('.')).value;
      if (collection === null || typeof collection !== 'object') continue;
      for (const ref of code.matchAll(new RegExp(`\\$${variable}((?:\\.[A-Za-z_]\\w*)+)`, 'g'))) {
        const path = ref[1].slice(1).split('.');
        for (const [key, entry] of Object.entries(collection as Record<string, unknown>))
          if (!lookup(entry, path).found)
            problems.push(`${file}: $${variable}.${path.join('.')} is missing in .Values${mapPath}.${key}`);
      }
    }
  }
  return problems;
}
