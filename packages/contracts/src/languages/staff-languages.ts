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
export type StaffLanguageCode = (typeof STAFF_LANGUAGE_CODES)[number];

export const isStaffLanguage = (language: unknown): language is StaffLanguageCode =>
  (STAFF_LANGUAGE_CODES as readonly unknown[]).includes(language);

/** A staff member's mail language from a page's or a stored one: English for a language the mails are not in. */
export const staffLanguageOrEnglish = (language: string | null | undefined): StaffLanguageCode =>
  isStaffLanguage(language) ? language : 'en';

/**
 * An invitee's mail language when the inviting admin chose none: the company's default if the mails are in it, else
 * the admin's own. Auth applies it; the invite form preselects it.
 */
export const defaultInviteeLanguage = (
  companyDefault: string | null | undefined,
  inviterLanguage: string | null | undefined,
): StaffLanguageCode => (isStaffLanguage(companyDefault) ? companyDefault : staffLanguageOrEnglish(inviterLanguage));
