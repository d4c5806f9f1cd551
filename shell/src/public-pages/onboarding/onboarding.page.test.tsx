import { createHash, webcrypto } from 'node:crypto';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { publicRoutes } from '../public-pages.routes';

let i18nInstance: i18n;
let fetchMock: jest.SpyInstance;

beforeAll(async () => {
  i18nInstance = await initTestI18n<i18n>('en');
  // jsdom has no WebCrypto: the browser's, as Node provides it (keys, Argon2id's salt, the common-password check).
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => {
  fetchMock.mockRestore();
  jest.spyOn(console, 'error').mockRestore();
});

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const COMMON_CHECK = '/api/account/password/common/';
/** Every call answers `reply` (a fresh copy), but the common-password check, which answers `suffixes`. */
function answerWith(reply: () => Response | Promise<Response>, suffixes: string[] = []) {
  fetchMock.mockImplementation(async (url: string) =>
    String(url).startsWith(COMMON_CHECK) ? answer(200, { suffixes }) : reply(),
  );
}
/** The calls other than the common-password check. */
const apiCalls = () =>
  (fetchMock.mock.calls as [string, RequestInit][]).filter(([url]) => !String(url).startsWith(COMMON_CHECK));

function renderOnboarding() {
  const router = createMemoryRouter(publicRoutes, { initialEntries: ['/company/onboarding'] });
  renderWithI18n(<RouterProvider router={router} />, i18nInstance);
  return router;
}

function fill(
  values: Partial<Record<'email' | 'full_name' | 'company_name' | 'password' | 'repeat_password' | 'country', string>>,
) {
  for (const [name, value] of Object.entries(values)) {
    const control = document.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement;
    fireEvent.change(control, { target: { value } });
  }
}

const valid = {
  email: '  ada@acme.example ',
  full_name: ' Ada Lovelace ',
  company_name: ' Acme ',
  password: 'correct horse battery',
  repeat_password: 'correct horse battery',
  country: 'FR',
};

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

/** The error message announced for the control called `name`. */
const errorOf = (name: string) => {
  const control = document.querySelector(`[name="${name}"]`)!;
  const id = control.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

describe('onboarding page', () => {
  it('when opened, then every input is labelled and the country list holds every country of the contracts', async () => {
    renderOnboarding();
    expect(await screen.findByRole('heading', { name: 'Create a whistleblowing account' })).toBeInTheDocument();
    for (const label of ['Work email', 'Full name', 'Company name', 'Password', 'Repeat password', 'Country']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    const { countries } = jest.requireActual('@whistle/contracts') as typeof import('@whistle/contracts');
    expect(screen.getByLabelText('Country').querySelectorAll('option[value]:not([value=""])')).toHaveLength(
      countries.length,
    );
  });

  it('when submitted empty, then required fields say so and nothing is sent', async () => {
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    submit();
    for (const name of ['email', 'full_name', 'company_name', 'password', 'country']) {
      expect(errorOf(name)).toBe('This field is required');
    }
    expect(document.activeElement).toBe(document.querySelector('[name="email"]'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('when values are only spaces, then they count as empty (values are trimmed)', async () => {
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill({ ...valid, full_name: '   ', company_name: ' ' });
    submit();
    expect(errorOf('full_name')).toBe('This field is required');
    expect(errorOf('company_name')).toBe('This field is required');
  });

  it('when the email is malformed and the passwords differ, then both errors show', async () => {
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill({ ...valid, email: 'ada@', repeat_password: 'something else entirely' });
    submit();
    expect(errorOf('email')).toBe('Invalid email address');
    expect(errorOf('repeat_password')).toBe('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('when valid, then the trimmed payload with browser-made keys (no password) is posted, the recovery kit must be confirmed, and the success page follows', async () => {
    // Registered, not yet confirmed: the company's public view does not exist yet.
    fetchMock.mockImplementation(async (url: string) => {
      if (String(url).startsWith(COMMON_CHECK)) return answer(200, { suffixes: [] });
      if (url === '/api/account/company') return answer(201, { url_identifier: 'acme' });
      return answer(404, { message: 'Company not found' });
    });
    const router = renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill(valid);
    submit();
    const kit = await screen.findByRole('heading', { name: 'Your recovery kit' }, { timeout: 20_000 });
    expect(kit).toBeInTheDocument();
    const [url, init] = apiCalls()[0]!;
    expect(url).toBe('/api/account/company');
    const sent = JSON.parse(init.body as string);
    expect(sent).toMatchObject({
      // The page's language, the one of the confirmation and the admin's mails.
      user_profile: { email: 'ada@acme.example', full_name: 'Ada Lovelace', language: 'en' },
      name: 'Acme',
      country: 'FR',
    });
    // The password never travels: the authentication secret derived from it does, with the admin's own keys.
    expect(init.body).not.toContain('correct horse battery');
    expect(sent.user_profile.password).toMatch(/^v2\.[A-Za-z0-9_-]{43}$/);
    expect(sent.user_profile.keys.unlock.method).toBe('password');
    expect(sent.passphrase).not.toBe(sent.credential.aes_encrypted_private_key);
    // Continue only once the admin says the kit is stored.
    const proceed = screen.getByRole('button', { name: 'Continue' });
    expect(proceed).toBeDisabled();
    fireEvent.click(screen.getByLabelText('I have stored the recovery kit'));
    fireEvent.click(proceed);
    await waitFor(() => expect(router.state.location.pathname).toBe('/company/acme/success'));
    expect(await screen.findByRole('heading', { name: 'Your account has been created' })).toBeInTheDocument();
    expect(await screen.findByText(/^Confirm your e-mail address: we sent a link/)).toBeInTheDocument();
    expect(screen.getByLabelText('Employees’ disclosure link')).toHaveValue(`${window.location.origin}/disclose/acme`);
    // No QR code of a link that does not work yet.
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Log in to your account' })).toHaveAttribute('href', '/company/login');
  });

  it('when submitting, then the button shows the busy state', async () => {
    let reply: (response: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => {
      reply = resolve;
    });
    answerWith(() => pending);
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill(valid);
    submit();
    const busy = await screen.findByRole('button', { name: 'Creating your account…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    await act(async () => reply(answer(201, { url_identifier: 'acme' })));
  });

  it('when the server answers field errors, then each shows next to its input', async () => {
    answerWith(() =>
      answer(400, {
        message: 'Bad Request',
        errors: {
          'user_profile.email': ['Invalid email address'],
          name: ['Company name already taken'],
          country: ['Unknown country'],
        },
      }),
    );
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill(valid);
    submit();
    await waitFor(() => expect(errorOf('email')).toBe('Invalid email address'));
    expect(errorOf('company_name')).toBe('Company name already taken');
    expect(errorOf('country')).toBe('Unknown country');
  });

  it.each([
    [
      { exists: true },
      'An account using this email domain already exists. Please contact your company admin to request an invite.',
    ],
    [
      { invalid: true },
      'Your email address is not approved for a Whistleblowing account. Please use your work email address.',
    ],
  ])('when the server flags %j, then the form explains it', async (flag, message) => {
    answerWith(() => answer(400, { message: 'Bad Request', ...flag }));
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill(valid);
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('when the operator closed registration (403), then the form says so', async () => {
    answerWith(() => answer(403, { message: 'Company registration is closed on this platform' }));
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill(valid);
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Company registration is closed on this platform. Please contact its operator.',
    );
  });

  it('when the password is one of the common ones, then it is refused under its field and nothing is registered', async () => {
    const common = 'Password1234';
    const hash = createHash('sha256').update(common.toLowerCase()).digest('hex');
    answerWith(() => answer(201, { url_identifier: 'acme' }), ['0123456789abcdef', hash.slice(2, 18)]);
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill({ ...valid, password: common, repeat_password: common });
    submit();
    await waitFor(() => expect(errorOf('password')).toBe('This password is too common; choose another'));
    expect(document.activeElement).toBe(document.querySelector('[name="password"]'));
    expect(apiCalls()).toEqual([]);
    // Only the hash's first two characters left the page.
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([`${COMMON_CHECK}${hash.slice(0, 2)}`]);
    // Another password goes through.
    fill({ password: 'a far less usual passphrase', repeat_password: 'a far less usual passphrase' });
    submit();
    await waitFor(() => expect(apiCalls().map(([url]) => url)).toContain('/api/account/company'));
  });

  it('when the server fails otherwise, then the error page shows', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    answerWith(() => answer(500, { message: 'Internal Server Error' }));
    renderOnboarding();
    await screen.findByRole('heading', { name: 'Create a whistleblowing account' });
    fill(valid);
    submit();
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
  });
});
