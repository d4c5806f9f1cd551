import type { i18n as I18n } from 'i18next';
import { LANGUAGE_STORAGE_KEY, isLanguage, languageDirection, type Language } from '@whistle/ui';

/** The language chosen on an earlier visit, if it is still supported. */
export function readStoredLanguage(storage: Storage): Language | undefined {
  try {
    const stored = storage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    // Storage can be disabled (privacy settings): the default language still works.
    return undefined;
  }
}

/**
 * Shows every language change on <html lang> (screen readers pick their voice from it) and on <html dir> (Arabic is
 * laid out right to left; the CSS uses logical properties, so it mirrors), and keeps it in storage — except the
 * language the page starts in: a default is not a choice, and a company's page may then open in the visitor's own
 * language (mfe-disclose's company languages).
 */
export function persistLanguageChanges(i18n: I18n, storage: Storage, root: HTMLElement = document.documentElement) {
  let started = i18n.isInitialized;
  i18n.on('initialized', () => {
    started = true;
  });
  i18n.on('languageChanged', (language) => {
    root.lang = language;
    root.dir = languageDirection(language);
    if (!started || !isLanguage(language)) return;
    try {
      storage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // Not persisted: the choice still applies to this visit.
    }
  });
}
