import {
  DISCLOSER_LANGUAGE_CODES,
  type CompanyCustomization,
  type CompanyLanguages,
  type DiscloserLanguage,
} from '@whistle/contracts';
import type { CustomizationRow, LanguagesRow } from '../../data-access/company.repository';

/** Where a logo's bytes live: one object per image content, under its company. */
export const logoObjectKey = (companyId: string, sha256: string) => `company/${companyId}/logo/${sha256}`;

/**
 * The logo's public address. The hash in the query changes with the image, so the answer can be cached for
 * good under it; the path itself stays the same for a company.
 */
export const logoUrl = (urlIdentifier: string, sha256: string) =>
  `/api/account/company/${urlIdentifier}/logo?v=${sha256.slice(0, 16)}`;

/**
 * The customisation as browsers read it. `offered`: only the texts of these languages (the public view: a text in a
 * language the page does not offer is kept for the admin, not served).
 */
export function customizationOf(
  row: Pick<CustomizationRow, 'url_identifier' | 'title' | 'description' | 'logo' | 'landing_texts'>,
  offered?: readonly string[],
) {
  const translations = Object.fromEntries(
    Object.entries(row.landing_texts).filter(
      ([language, text]) => text && isDiscloserLanguage(language) && (!offered || offered.includes(language)),
    ),
  ) as CompanyCustomization['translations'];
  return {
    title: row.title,
    description: row.description,
    logo_url: row.logo ? logoUrl(row.url_identifier, row.logo) : null,
    translations,
  } satisfies CompanyCustomization;
}

const isDiscloserLanguage = (language: string): language is DiscloserLanguage =>
  (DISCLOSER_LANGUAGE_CODES as readonly string[]).includes(language);

/** The languages a company offers: every one the platform has until it chooses (null). */
export function languagesOf(row: LanguagesRow): CompanyLanguages {
  const offered = row.discloser_languages?.filter(isDiscloserLanguage) ?? [...DISCLOSER_LANGUAGE_CODES];
  const chosen = isDiscloserLanguage(row.default_language) ? row.default_language : 'en';
  return { offered, default: offered.includes(chosen) ? chosen : offered[0]! };
}
