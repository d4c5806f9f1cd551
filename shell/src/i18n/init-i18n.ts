import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, hasTranslations } from '@whistle/ui';
import { fetchWithRetry } from '../remotes/fetch-with-retry';
import { persistLanguageChanges, readStoredLanguage } from './language-storage';

/** A translation file, from the frontend that owns its namespace (a network failure is tried again). */
async function loadTranslations(language: string, namespace: string): Promise<unknown> {
  // A staff namespace in a discloser-only language: nothing to fetch, i18next falls back to English.
  if (!hasTranslations(language, namespace)) return {};
  const url = `/locales/${language}/${namespace}.json`;
  const response = await fetchWithRetry(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/**
 * The one i18next instance of the page. i18next and react-i18next are federation singletons, so the
 * remotes' `useTranslation('<their namespace>')` reach this instance and load their own namespace
 * from /locales/{lng}/{ns}.json, which the platform serves from the owning frontend.
 */
export function initI18n(storage: Storage = window.localStorage) {
  persistLanguageChanges(i18n, storage);
  return i18n
    .use(resourcesToBackend(loadTranslations))
    .use(initReactI18next)
    .init({
      lng: readStoredLanguage(storage) ?? DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: SUPPORTED_LANGUAGES,
      ns: ['common', 'shell'],
      defaultNS: 'common',
      // React escapes what it renders.
      interpolation: { escapeValue: false },
    });
}
