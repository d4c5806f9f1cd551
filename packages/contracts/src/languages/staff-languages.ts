// No zod here, like discloser-languages.ts: @whistle/ui's language list imports it, and the discloser pages that one.
import type { DiscloserLanguage } from './discloser-languages';

/**
 * The staff pages' languages (@whistle/ui's STAFF_LANGUAGES); a reply template may be in one of these even where the
 * disclosure page does not offer it. One language a line, to merge additions easily.
 */
// prettier-ignore
export const STAFF_LANGUAGE_CODES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'nl',
  'pl',
  'pt',
] as const satisfies readonly DiscloserLanguage[];
