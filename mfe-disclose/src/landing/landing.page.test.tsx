import { fireEvent, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { ApiError, type ApiClient } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { LANGUAGE_STORAGE_KEY } from '@whistle/ui';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { discloseRoutes } from '../disclose.routes';

const company: CompanyPublicView = {
  url_identifier: 'acme',
  name: 'Acme',
  customization: { title: null, description: null, logo_url: null, translations: {} },
  languages: { offered: ['en', 'fr'], default: 'en' },
  public_key: 'v1.key',
  key_version: 1,
  categories: [],
  locations: [],
};

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});
afterEach(() => jest.restoreAllMocks());

const apiAnswering = (answer: () => Promise<unknown>): ApiClient => ({
  baseUrl: '',
  headers: () => ({ Accept: 'application/json' }),
  request: jest.fn(answer) as ApiClient['request'],
});

function renderLanding(api: ApiClient, instance = english, path = '/disclose/acme') {
  const router = createMemoryRouter(discloseRoutes(api), { initialEntries: [path] });
  renderWithI18n(<RouterProvider router={router} />, instance);
  return router;
}

describe('discloser landing page', () => {
  it('when the company has no title or description, then the defaults show with the safety statements', async () => {
    const api = apiAnswering(async () => company);
    renderLanding(api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Speak up, you’re safe' })).toBeInTheDocument();
    expect(api.request).toHaveBeenCalledWith('GET', '/api/account/company/acme', expect.anything());
    expect(screen.getByText(/securely encrypted/)).toBeInTheDocument();
    expect(screen.getByText(/completely anonymously/)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Whistle' })).toBeInTheDocument();
    // Without a logo of its own, the header still says whose channel this is.
    expect(screen.getByRole('banner')).toHaveTextContent('Acme');
    const next = screen.getByRole('region', { name: 'What happens after you report' });
    expect(next).toHaveTextContent('Within 7 days, the company must confirm that it has received your report.');
    expect(next).toHaveTextContent('Within 3 months of that confirmation');
    expect(screen.getByRole('link', { name: 'Report an incident' })).toHaveAttribute('href', '/disclose/acme/create');
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeInTheDocument();
    expect(document.title).toBe('Speak up, you’re safe');
  });

  it('when the company customised its page, then its title, description and logo show', async () => {
    const logoUrl = '/api/account/company/acme/logo?v=0123456789abcdef';
    const description =
      '<h2>Who reads this</h2><p>Only <strong>our ethics team</strong>.</p>' +
      '<ul><li><a href="https://ethics.example" target="_blank" rel="noopener noreferrer nofollow">Policy</a></li></ul>';
    renderLanding(
      apiAnswering(async () => ({
        ...company,
        customization: { title: 'Tell us', description, logo_url: logoUrl, translations: {} },
      })),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Tell us' })).toBeInTheDocument();
    expect(document.title).toBe('Tell us');
    // The stored (server-sanitised) HTML is rendered as HTML, not shown as text.
    expect(screen.getByRole('heading', { level: 2, name: 'Who reads this' })).toBeInTheDocument();
    expect(screen.getByText('our ethics team').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'Policy' })).toHaveAttribute('href', 'https://ethics.example');
    expect(screen.queryByText(/This is a safe place to report/)).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Acme' })).toHaveAttribute('src', logoUrl);
    expect(screen.queryByRole('img', { name: 'Whistle' })).not.toBeInTheDocument();
    // The logo names the company: its name is not written a second time.
    expect(screen.getByRole('banner').querySelector('.disclose-company-name')).toBeNull();
  });

  it('when Check incident status is pressed, then the status form opens; Cancel closes it', async () => {
    renderLanding(apiAnswering(async () => company));
    fireEvent.click(await screen.findByRole('button', { name: 'Check incident status' }));
    const code = screen.getByLabelText('Your secret code');
    expect(code).toHaveAttribute('name', 'uniquePassword');
    expect(code).toHaveAttribute('placeholder', 'Enter tracking number');
    expect(code).toHaveFocus();
    expect(code.closest('form')).toHaveAttribute('method', 'post');
    expect(code.closest('form')).toHaveAttribute('action', '/disclose/acme/review');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Your secret code')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check incident status' })).toBeInTheDocument();
  });

  it('when the status form is sent without a secret code, then it says the field is required and stays', async () => {
    const router = renderLanding(apiAnswering(async () => company));
    fireEvent.click(await screen.findByRole('button', { name: 'Check incident status' }));
    fireEvent.click(screen.getByRole('button', { name: 'Check incident status' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Your secret code')).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/disclose/acme');
  });

  it('when the status form is sent with a secret code, then it posts the code to the review route', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const router = renderLanding(apiAnswering(async () => company));
    const submissions: { method?: string; action?: string; code?: FormDataEntryValue | null }[] = [];
    router.subscribe(({ navigation }) => {
      if (navigation.formMethod) {
        submissions.push({
          method: navigation.formMethod,
          action: navigation.formAction,
          code: navigation.formData?.get('uniquePassword'),
        });
      }
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Check incident status' }));
    fireEvent.change(screen.getByLabelText('Your secret code'), { target: { value: 'R2D2:secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check incident status' }));
    await waitFor(() =>
      expect(submissions[0]).toEqual({ method: 'POST', action: '/disclose/acme/review', code: 'R2D2:secret' }),
    );
  });

  it('when French was chosen on an earlier visit, then the page is in French', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    renderLanding(
      apiAnswering(async () => company),
      await initTestI18n<i18n>('fr'),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Exprimez-vous, vous êtes protégé' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vérifier le statut d’un incident' })).toBeInTheDocument();
    localStorage.clear();
  });

  it('when the url_identifier is unknown, then a company-not-found message shows', async () => {
    renderLanding(
      apiAnswering(async () => {
        throw new ApiError('/api/account/company/nope', 404, 'Not Found', { message: 'Not Found' });
      }),
      english,
      '/disclose/nope',
    );
    expect(await screen.findByRole('heading', { name: 'Company not found' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeInTheDocument();
  });

  it('when loading the company fails otherwise, then the unexpected error page shows', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderLanding(
      apiAnswering(async () => {
        throw new ApiError('/api/account/company/acme', 500, 'Internal Server Error', {});
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
  });
});
