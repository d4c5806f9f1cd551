import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './repo';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.entries(tree).reduce<Record<string, string>>((flat, [key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? { ...flat, [name]: value } : { ...flat, ...flatten(value, name) };
  }, {});
}

/** A frontend's translation namespace as flat `key → text`, read from its source locales. */
export function locale(frontend: string, language: string, namespace: string): Record<string, string> {
  return flatten(
    JSON.parse(readFileSync(path.join(repoRoot, frontend, 'locales', language, `${namespace}.json`), 'utf8')) as Tree,
  );
}

/** The `language` text of the string whose English text is `english` (fails when it is missing). */
export function translationOf(frontend: string, namespace: string, english: string | RegExp, language: string): string {
  const en = locale(frontend, 'en', namespace);
  const key = Object.keys(en).find((name) =>
    typeof english === 'string' ? en[name] === english : english.test(en[name]),
  );
  if (!key) throw new Error(`No string matching ${english} in ${frontend}/locales/en/${namespace}.json`);
  const translated = locale(frontend, language, namespace)[key];
  if (!translated) throw new Error(`${frontend}/locales/${language}/${namespace}.json has no ${key}`);
  return translated;
}
