import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyLanguages, DiscloserLanguage } from '@whistle/contracts';
import { LANGUAGE_STORAGE_KEY } from '@whistle/ui';

/**
 * The language a company's page is shown in (issue #29 item 3): the one chosen earlier (spec: `i18n-language`) when
 * the company offers it; else the first of the browser's preferred languages it offers (`de-AT` counts as `de`);
 * else the company's default.
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

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Shows the company's page in `languageFor`'s language. A language picked this way is not a choice: the one stored
 * before (or none) is put back, so the chooser's choice is the only one kept.
 */
export function useCompanyLanguage(languages: CompanyLanguages | undefined) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (!languages) return;
    const stored = storedLanguage();
    const language = languageFor(languages, stored, navigator.languages ?? [navigator.language]);
    if (language === i18n.language) return;
    void i18n.changeLanguage(language).then(() => {
      try {
        if (stored === null) localStorage.removeItem(LANGUAGE_STORAGE_KEY);
        else localStorage.setItem(LANGUAGE_STORAGE_KEY, stored);
      } catch {
        // Storage disabled: nothing was kept either.
      }
    });
  }, [languages, i18n]);
}
