import { DISCLOSER_LANGUAGE_CODES, LANGUAGE_NAMES, STAFF_LANGUAGE_CODES, languageDirection } from '@whistle/contracts';
import type { SelectOption } from './select-field.component';

export { LANGUAGE_NAMES } from '@whistle/contracts';

export type Language = keyof typeof LANGUAGE_NAMES;
/**
 * The discloser pages' languages (the contracts' list, which the company settings are checked against): a language
 * joins it with its mfe-disclose and shell/common files (the locale-files test then requires every key of them).
 */
export const DISCLOSER_LANGUAGES: readonly Language[] = DISCLOSER_LANGUAGE_CODES;
/**
 * The staff pages' languages: a language joins this list (kept in @whistle/contracts, where the auth service reads it
 * too) with its shell/shell, mfe-incidents/incidents and mfe-settings/settings files (the locale-files test then
 * requires every key of them). Staff namespaces exist in these languages only.
 */
export const STAFF_LANGUAGES: readonly Language[] = STAFF_LANGUAGE_CODES;
/** A language select's choices: each language named in itself, whatever the page is shown in. */
export const languageOptions = (languages: readonly Language[]): SelectOption[] =>
  languages.map((language) => ({ value: language, label: LANGUAGE_NAMES[language], lang: language }));
/** Every language a page can be shown in. */
export const SUPPORTED_LANGUAGES: Language[] = [...new Set([...DISCLOSER_LANGUAGES, ...STAFF_LANGUAGES])];
/** The namespaces every discloser page needs, translated into every discloser language. */
export const DISCLOSER_NAMESPACES: readonly string[] = ['common', 'disclose'];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'i18n-language';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (SUPPORTED_LANGUAGES as string[]).includes(value);

/** The writing direction of a language, for <html dir> (the contracts' list, which the standalone server uses too). */
export { languageDirection };

/**
 * The locale whose plural rules a language's texts are written for, where it is not the language's own code: the
 * Portuguese pages are European (docs/i18n.md), and `pt` alone is Brazil's rules in CLDR (0 and 1.5 take the
 * singular there, "0 caso"; in Portugal the plural, "0 casos").
 */
const PLURAL_LOCALES: Partial<Record<string, string>> = { pt: 'pt-PT' };
export const pluralLocale = (language: string): string => PLURAL_LOCALES[language] ?? language;

/** Whether `/locales/{language}/{namespace}.json` exists: staff namespaces are in the staff languages only. */
export const hasTranslations = (language: string, namespace: string): boolean =>
  isLanguage(language) && (DISCLOSER_NAMESPACES.includes(namespace) || STAFF_LANGUAGES.includes(language));
