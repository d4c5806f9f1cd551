import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, hasTranslations, isLanguage, pluralLocale } from '@whistle/ui';
import { fetchWithRetry } from '../remotes/fetch-with-retry';
import { persistLanguageChanges, readStoredLanguage } from './language-storage';

/**
 * A translation file, from the frontend that owns its namespace (a network failure is tried again). Every language's
 * files hold every key of English's (the locale-files test), so there is no fallback language to fetch as well; a
 * staff namespace in a discloser-only language is English's file instead (staff pages exist in STAFF_LANGUAGES).
 */
async function loadTranslations(language: string, namespace: string): Promise<unknown> {
  const url = `/locales/${hasTranslations(language, namespace) ? language : DEFAULT_LANGUAGE}/${namespace}.json`;
  const response = await fetchWithRetry(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/**
 * The one i18next instance of the page. i18next and react-i18next are federation singletons, so the
 * remotes' `useTranslation('<their namespace>')` reach this instance and load their own namespace
 * from /locales/{lng}/{ns}.json, which the platform serves from the owning frontend.
 */
export function initI18n(storage: Storage = window.localStorage, root: HTMLElement = document.documentElement) {
  persistLanguageChanges(i18n, storage, root);
  // A discloser page needs its remote's namespace and the common one only, never the shell's staff texts.
  const discloserPage = window.location.pathname.startsWith('/disclose');
  const ready = i18n
    .use(resourcesToBackend(loadTranslations))
    .use(initReactI18next)
    .init({
      // A choice made earlier; else the one the server drew the page in (a company's page: <html lang>).
      lng: readStoredLanguage(storage) ?? (isLanguage(root.lang) ? root.lang : DEFAULT_LANGUAGE),
      // One language's files per page (issue #29 item 5): English is not fetched beside another language.
      fallbackLng: false,
      supportedLngs: SUPPORTED_LANGUAGES,
      ns: discloserPage ? ['common'] : ['common', 'shell'],
      defaultNS: 'common',
      // React escapes what it renders.
      interpolation: { escapeValue: false },
    });
  followPluralLocales(i18n);
  return ready;
}

/**
 * i18next picks a plural form by `Intl.PluralRules(<language code>)`: for a language whose texts follow another
 * locale's rules (`pluralLocale`: European Portuguese), the rules of that locale. The resolver exists once init
 * has started (its services are made synchronously).
 */
function followPluralLocales(instance: typeof i18n) {
  const resolver = instance.services.pluralResolver as {
    getRule(code: string, options?: object): Intl.PluralRules | undefined;
  };
  const rule = resolver.getRule.bind(resolver);
  resolver.getRule = (code, options) => rule(pluralLocale(code), options);
}
