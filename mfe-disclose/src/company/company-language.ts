import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { languageFor, type CompanyLanguages } from '@whistle/contracts';
import { LANGUAGE_STORAGE_KEY } from '@whistle/ui';

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Shows the company's page in `languageFor`'s language (@whistle/contracts: the standalone server draws the landing
 * page in it too). A language picked this way is not a choice: the one stored
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
