import i18next from 'i18next';
import { persistLanguageChanges, readStoredLanguage } from './language-storage';

describe('language storage', () => {
  beforeEach(() => localStorage.clear());

  it('when a supported language was kept under i18n-language, then it is read back', () => {
    localStorage.setItem('i18n-language', 'fr');
    expect(readStoredLanguage(localStorage)).toBe('fr');
  });

  it('when nothing or an unsupported language is stored, then there is no stored choice', () => {
    expect(readStoredLanguage(localStorage)).toBeUndefined();
    localStorage.setItem('i18n-language', 'tlh');
    expect(readStoredLanguage(localStorage)).toBeUndefined();
  });

  it('when the language changes after the start, then it is written to i18n-language and to <html lang>', async () => {
    const i18n = i18next.createInstance();
    persistLanguageChanges(i18n, localStorage);
    await i18n.init({ lng: 'en', fallbackLng: 'en', supportedLngs: ['en', 'fr'], resources: {} });
    // The language the page starts in is not a choice.
    expect(localStorage.getItem('i18n-language')).toBeNull();
    expect(document.documentElement.lang).toBe('en');
    await i18n.changeLanguage('fr');
    expect(localStorage.getItem('i18n-language')).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('when Arabic is chosen, then <html dir> is rtl, and ltr again for a left-to-right language', async () => {
    const i18n = i18next.createInstance();
    persistLanguageChanges(i18n, localStorage);
    await i18n.init({ lng: 'en', fallbackLng: 'en', supportedLngs: ['en', 'ar', 'de'], resources: {} });
    await i18n.changeLanguage('ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    await i18n.changeLanguage('de');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement.lang).toBe('de');
  });
});
