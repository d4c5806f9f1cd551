import type { i18n as I18n } from 'i18next';

const translations: Record<string, unknown> = {
  '/locales/fr/common.json': { loading: 'Chargement…' },
  '/locales/fr/shell.json': { brand: 'Whistle' },
  '/locales/en/common.json': { loading: 'Loading…' },
  '/locales/en/shell.json': { brand: 'Whistle', signIn: 'Sign in' },
  '/locales/de/common.json': { loading: 'Wird geladen…' },
  '/locales/de/disclose.json': { title: 'Meldung' },
  '/locales/bg/common.json': { loading: 'Зареждане…' },
  '/locales/pt/common.json': {
    cases_one: '{{count}} caso',
    cases_many: '{{count}} de casos',
    cases_other: '{{count}} casos',
  },
  '/locales/pt/shell.json': {},
};

let fetched: string[];
beforeEach(() => {
  localStorage.clear();
  document.documentElement.lang = 'en';
  window.history.replaceState(null, '', '/');
  fetched = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
    fetched.push(String(url));
    return new Response(JSON.stringify(translations[String(url)] ?? {}), {
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterEach(() => jest.restoreAllMocks());

/** A fresh page: its own i18next instance, as each page load has. */
async function startPage(): Promise<I18n> {
  jest.resetModules();
  const { initI18n } = await import('./init-i18n');
  const { default: i18next } = await import('i18next');
  await initI18n(localStorage);
  return i18next;
}

describe('initI18n', () => {
  it('when French was chosen on an earlier visit, then the page starts in French from /locales/{lng}/{ns}.json', async () => {
    localStorage.setItem('i18n-language', 'fr');
    const i18next = await startPage();
    expect(i18next.language).toBe('fr');
    expect(i18next.t('loading')).toBe('Chargement…');
    expect(fetched.sort()).toEqual(['/locales/fr/common.json', '/locales/fr/shell.json']);
    await i18next.changeLanguage('en');
    expect(localStorage.getItem('i18n-language')).toBe('en');
  });

  it('when the server drew a discloser page in German, then it starts in German and fetches German files only', async () => {
    document.documentElement.lang = 'de';
    window.history.replaceState(null, '', '/disclose/acme');
    const i18next = await startPage();
    expect(i18next.language).toBe('de');
    await i18next.loadNamespaces('disclose');
    expect(i18next.t('disclose:title')).toBe('Meldung');
    // No English fallback, no staff namespace: the page's language, its two namespaces.
    expect(fetched.sort()).toEqual(['/locales/de/common.json', '/locales/de/disclose.json']);
    // Starting in it is not a choice.
    expect(localStorage.getItem('i18n-language')).toBeNull();
  });

  it("when a staff namespace is needed in a discloser-only language, then English's file is fetched for it", async () => {
    localStorage.setItem('i18n-language', 'bg');
    const i18next = await startPage();
    expect(i18next.t('loading')).toBe('Зареждане…');
    expect(i18next.t('shell:signIn')).toBe('Sign in');
    expect(fetched.sort()).toEqual(['/locales/bg/common.json', '/locales/en/shell.json']);
  });

  it("when the page is in Portuguese, then plurals follow Portugal's rules: 0 and 1.5 take the plural", async () => {
    localStorage.setItem('i18n-language', 'pt');
    const i18next = await startPage();
    expect([0, 1, 1.5, 2].map((count) => i18next.t('cases', { count }))).toEqual([
      '0 casos',
      '1 caso',
      '1.5 casos',
      '2 casos',
    ]);
  });
});
