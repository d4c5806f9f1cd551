// No zod here either (see discloser-languages.ts): the discloser pages run these, the standalone server too.
import type { CompanyCustomization } from '../http/customization';
import type { CompanyLanguages } from '../http/languages';
import type { DiscloserLanguage } from './discloser-languages';

/**
 * The language a company's page is shown in (issue #29 item 3): the one chosen earlier (spec: `i18n-language`) when
 * the company offers it; else the first of the browser's preferred languages it offers (`de-AT` counts as `de`);
 * else the company's default. The standalone server draws a landing page's first view in it (no stored choice
 * there: the browser's Accept-Language only), the page's script opens in it.
 */
export function languageFor(
  languages: CompanyLanguages,
  stored: string | null,
  preferred: readonly string[],
): DiscloserLanguage {
  const offered = (language: string | null | undefined) =>
    languages.offered.find((each) => each === language?.toLowerCase());
  return (
    offered(stored) ??
    preferred.map((language) => offered(language) ?? offered(language.split('-')[0])).find(Boolean) ??
    languages.default
  );
}

/** The title and description in the page's language where the company wrote them; each its default text else. */
export function landingText({ title, description, translations }: CompanyCustomization, language: string) {
  const own = translations[language as keyof typeof translations];
  return { title: own?.title ?? title, description: own?.description ?? description };
}

/** The languages written right to left (Arabic): their pages are mirrored, `<html dir="rtl">`. */
export const RIGHT_TO_LEFT_LANGUAGES: readonly string[] = ['ar'];

/** The writing direction of a language, for `<html dir>`. */
export const languageDirection = (language: string): 'rtl' | 'ltr' =>
  RIGHT_TO_LEFT_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
