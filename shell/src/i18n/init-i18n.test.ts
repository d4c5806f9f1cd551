import i18next from 'i18next';
import { initI18n } from './init-i18n';

const translations: Record<string, unknown> = {
  '/locales/fr/common.json': { loading: 'Chargement…' },
  '/locales/fr/shell.json': { brand: 'Whistle' },
  '/locales/en/common.json': { loading: 'Loading…' },
  '/locales/en/shell.json': { brand: 'Whistle' },
};

describe('initI18n', () => {
  it('when French was chosen on an earlier visit, then the page starts in French from /locales/{lng}/{ns}.json', async () => {
    localStorage.setItem('i18n-language', 'fr');
    const fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(
      async (url) =>
        new Response(JSON.stringify(translations[String(url)] ?? {}), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    await initI18n(localStorage);
    expect(i18next.language).toBe('fr');
    expect(i18next.t('loading')).toBe('Chargement…');
    const urls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls).toEqual(expect.arrayContaining(['/locales/fr/common.json', '/locales/fr/shell.json']));
    await i18next.changeLanguage('en');
    expect(localStorage.getItem('i18n-language')).toBe('en');
    fetchMock.mockRestore();
  });
});
