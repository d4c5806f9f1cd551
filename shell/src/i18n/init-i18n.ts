import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES } from '@whistle/ui';
import { persistLanguageChanges, readStoredLanguage } from './language-storage';

/**
 * The one i18next instance of the page. i18next and react-i18next are federation singletons, so the
 * remotes' `useTranslation('<their namespace>')` reach this instance and load their own namespace
 * from /locales/{lng}/{ns}.json, which the platform serves from the owning frontend.
 */
export function initI18n(storage: Storage = window.localStorage) {
  persistLanguageChanges(i18n, storage);
  return i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng: readStoredLanguage(storage) ?? DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: SUPPORTED_LANGUAGES,
      ns: ['common', 'shell'],
      defaultNS: 'common',
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      // React escapes what it renders.
      interpolation: { escapeValue: false },
    });
}
