import { screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import type { ApiClient } from '@whistle/api-client';
import { languageFor, type CompanyPublicView } from '@whistle/contracts';
import { LANGUAGE_STORAGE_KEY } from '@whistle/ui';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { discloseRoutes } from '../disclose.routes';

/** A company that offers English, German and French, German by default, with a German text of its own. */
const company: CompanyPublicView = {
  url_identifier: 'acme',
  name: 'Acme',
  customization: {
    title: 'Speak up at Acme',
    description: '<p>Our default text.</p>',
    logo_url: null,
    translations: { de: { title: 'Sprechen Sie es an', description: null } },
  },
  languages: { offered: ['en', 'de', 'fr'], default: 'de' },
  public_key: 'v1.key',
  key_version: 1,
  categories: [],
  locations: [],
};

const api: ApiClient = {
  baseUrl: '',
  headers: () => ({ Accept: 'application/json' }),
  request: (async () => company) as ApiClient['request'],
};

function preferLanguages(languages: string[]) {
  jest.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
}

async function openLanding(): Promise<i18n> {
  const instance = await initTestI18n<i18n>('en');
  // As the shell does on the page (persistLanguageChanges): every change is written under i18n-language.
  instance.on('languageChanged', (language) => localStorage.setItem(LANGUAGE_STORAGE_KEY, language));
  const router = createMemoryRouter(discloseRoutes(api), { initialEntries: ['/disclose/acme'] });
  renderWithI18n(<RouterProvider router={router} />, instance);
  await screen.findByRole('heading', { level: 1 });
  return instance;
}

afterEach(() => {
  jest.restoreAllMocks();
  localStorage.clear();
});

describe('the language of a company page', () => {
  it('picks the earlier choice when offered, else the first preferred language offered, else the default', () => {
    const languages = company.languages;
    expect(languageFor(languages, 'fr', ['de'])).toBe('fr');
    // A choice the company does not offer gives way, as if none was made.
    expect(languageFor(languages, 'sv', ['fr-CA', 'de'])).toBe('fr');
    expect(languageFor(languages, null, ['pt-BR', 'en-GB'])).toBe('en');
    expect(languageFor(languages, null, ['pt-BR', 'ja'])).toBe('de');
    expect(languageFor(languages, null, [])).toBe('de');
  });

  it('when a first visit comes from a browser preferring German, then the page is German with the company’s German title, and nothing is stored as a choice', async () => {
    preferLanguages(['de-AT', 'en']);
    const instance = await openLanding();
    await waitFor(() => expect(instance.language).toBe('de'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sprechen Sie es an' })).toBeInTheDocument();
    // No German description was written: the company's default one shows.
    expect(screen.getByText('Our default text.')).toBeInTheDocument();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBeNull();
  });

  it('when the browser prefers a language the company does not offer, then the company’s default shows', async () => {
    preferLanguages(['ja']);
    const instance = await openLanding();
    await waitFor(() => expect(instance.language).toBe('de'));
  });

  it('when French was chosen before, then it stays, with the default text, and the chooser lists only the offered languages', async () => {
    preferLanguages(['de']);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    const instance = await openLanding();
    await waitFor(() => expect(instance.language).toBe('fr'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Speak up at Acme' })).toBeInTheDocument();
    const chooser = screen.getByRole('combobox', { name: instance.t('common:language.label') });
    expect(
      within(chooser)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['en', 'de', 'fr']);
    expect(instance.language).toBe('fr');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('fr');
  });
});
