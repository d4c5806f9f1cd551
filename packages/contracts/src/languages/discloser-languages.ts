// No zod here: the discloser pages import this list, and their first bytes are counted.
/**
 * The languages a discloser page can be shown in: the EU's 24 official languages, Ukrainian, Turkish and Arabic
 * (issue #29), English first (the default and fallback, spec §1). Each has its mfe-disclose and shell/common files.
 */
export const DISCLOSER_LANGUAGE_CODES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'ar',
  'uk',
  'tr',
  'ro',
  'cs',
  'sv',
  'da',
  'fi',
  'et',
  'sk',
  'sl',
  'hr',
  'hu',
  'lt',
  'lv',
  'bg',
  'el',
  'mt',
  'ga',
] as const;
export type DiscloserLanguage = (typeof DISCLOSER_LANGUAGE_CODES)[number];
