import fs from 'node:fs';
import path from 'node:path';
import {
  DISCLOSER_LANGUAGES,
  DISCLOSER_NAMESPACES,
  STAFF_LANGUAGES,
  SUPPORTED_LANGUAGES,
  pluralLocale,
} from '@whistle/ui';

/**
 * The translation files of every frontend against English, their source: the same keys (plural keys in the
 * plural forms of each language), the same {{placeholders}}, valid i18next syntax, and every discloser
 * namespace in every discloser language.
 */
const ROOT = path.resolve(__dirname, '../../..');
const FRONTENDS = ['shell', 'mfe-disclose', 'mfe-incidents', 'mfe-settings'];
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(name, value);
    else for (const [k, v] of flatten(value, name)) flat.set(k, v);
  }
  return flat;
}

const files = FRONTENDS.flatMap((frontend) => {
  const dir = path.join(ROOT, frontend, 'locales');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).flatMap((language) =>
    fs.readdirSync(path.join(dir, language)).map((file) => ({
      frontend,
      language,
      namespace: path.basename(file, '.json'),
      file: path.join(dir, language, file),
    })),
  );
});
const read = (file: string) => flatten(JSON.parse(fs.readFileSync(file, 'utf8')) as Tree);
const english = new Map(
  files.filter((f) => f.language === 'en').map((f) => [`${f.frontend}/${f.namespace}`, read(f.file)]),
);

/**
 * The plural forms a language uses for the counts a page shows (0 to 1000, and a fraction: the reporting page's
 * median of 1.5 days): Polish one/few/many and, for the fraction, other; Arabic six, Slovenian four… (French's
 * "many", for millions, is left out: no count on these pages gets there).
 */
function pluralCategories(language: string): Set<string> {
  // The rules the page uses for the language (European Portuguese: pt-PT's, not Brazil's).
  const rules = new Intl.PluralRules(pluralLocale(language));
  return new Set([...Array.from({ length: 1001 }, (_, n) => rules.select(n)), rules.select(1.5)]);
}

/** The keys a language must have: English's, each plural key in the language's own plural categories. */
function expectedKeys(language: string, source: Map<string, string>): string[] {
  const categories = pluralCategories(language);
  const keys = new Set<string>();
  for (const key of source.keys()) {
    if (PLURAL_SUFFIX.test(key))
      for (const category of categories) keys.add(key.replace(PLURAL_SUFFIX, `_${category}`));
    else keys.add(key);
  }
  return [...keys].sort();
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*([\w.]+)[^}]*}}/g)].map((m) => m[1]).sort();
const englishSource = (source: Map<string, string>, key: string) =>
  source.get(key) ?? source.get(key.replace(PLURAL_SUFFIX, '_other')) ?? '';

describe('translation files', () => {
  it('every language folder is a supported language', () => {
    const unknown = files.map((f) => f.language).filter((l) => !(SUPPORTED_LANGUAGES as string[]).includes(l));
    expect(unknown).toEqual([]);
  });

  it.each(DISCLOSER_LANGUAGES.flatMap((language) => DISCLOSER_NAMESPACES.map((ns) => [language, ns])))(
    'the discloser pages have %s/%s.json',
    (language, namespace) => {
      expect(files.some((f) => f.language === language && f.namespace === namespace)).toBe(true);
    },
  );

  it.each(STAFF_LANGUAGES.flatMap((language) => [...english.keys()].map((source) => [language, source])))(
    'the staff pages have %s of %s',
    (language, source) => {
      const [frontend, namespace] = source.split('/');
      expect(files.some((f) => f.frontend === frontend && f.language === language && f.namespace === namespace)).toBe(
        true,
      );
    },
  );

  describe.each(
    files.filter((f) => f.language !== 'en').map((f) => [`${f.frontend}/locales/${f.language}/${f.namespace}.json`, f]),
  )('%s', (_name, { frontend, language, namespace, file }) => {
    const source = english.get(`${frontend}/${namespace}`);
    const translated = read(file);

    it('has every key of English, in its plural forms, and no other', () => {
      expect(source).toBeDefined();
      expect([...translated.keys()].sort()).toEqual(expectedKeys(language, source!));
    });

    it('keeps the placeholders of English, in valid i18next syntax, and is never empty', () => {
      for (const [key, text] of translated) {
        expect({ key, placeholders: placeholders(text) }).toEqual({
          key,
          placeholders: placeholders(englishSource(source!, key)),
        });
        // Every {{ is closed by }}, and no single brace is left over from a typo.
        expect({ key, rest: text.replace(/{{\s*[\w.]+(\s*,\s*[\w]+)?\s*}}/g, '').match(/[{}]/g) }).toEqual({
          key,
          rest: null,
        });
        expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
      }
    });
  });
});
