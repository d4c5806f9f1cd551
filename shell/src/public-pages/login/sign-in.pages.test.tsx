import { createHash, webcrypto } from 'node:crypto';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { navigateToUrl } from 'single-spa';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { publicRoutes } from '../public-pages.routes';
import { safeNextPath } from './sign-in';

jest.mock('single-spa', () => ({ navigateToUrl: jest.fn() }));

let i18nInstance: i18n;
let fetchMock: jest.SpyInstance;
const jsdomCrypto = globalThis.crypto;
beforeAll(async () => {
  i18nInstance = await initTestI18n<i18n>('en');
  // jsdom has no WebCrypto: the browser's, as Node provides it (key derivation, the common-password check).
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
});
afterAll(() => {
  Object.defineProperty(globalThis, 'crypto', { value: jsdomCrypto, configurable: true });
});
/** The account's salt, as auth answers it for a known or unknown address alike. */
const SALT = { kdf: 'argon2id-v2', salt: 'c2FsdCBvZiB0aGlzIHVzZQ' };
const AUTH_SECRET = /^v2\.[A-Za-z0-9_-]{43}$/;
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
  localStorage.clear();
  jest.mocked(navigateToUrl).mockReset();
});
afterEach(() => fetchMock.mockRestore());

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function open(path: string) {
  const router = createMemoryRouter(publicRoutes, { initialEntries: [path] });
  renderWithI18n(<RouterProvider router={router} />, i18nInstance);
  return router;
}

async function logIn(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it.each(['/', '/company/login'])('when %s opens, then it links to forgot password and SSO', async (path) => {
    open(path);
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/company/password/reset',
    );
    expect(screen.getByRole('link', { name: /single sign-on/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/company\/login\/sso/),
    );
  });

  it('when the password is wrong, then "Invalid email or password" shows and nothing is stored', async () => {
    fetchMock.mockResolvedValue(answer(401, { message: 'Invalid email or password' }));
    open('/company/login');
    await logIn('ada@acme.example', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('when the company requires single sign-on, then the page says so and points to the SSO link; nothing is stored', async () => {
    fetchMock.mockResolvedValue(answer(403, { message: 'Single sign-on required' }));
    open('/company/login');
    await logIn('rita@acme.example', 'right password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your company requires single sign-on');
    expect(screen.getByRole('link', { name: 'Log in with single sign-on (SSO)' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('when the login answers a token, then it is stored under "token" and the user goes to next', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/account/token/salt'
        ? answer(200, SALT)
        : url === '/api/account/token'
          ? answer(200, { token: 'a.e30.c' })
          : answer(403, { message: 'MFA required' }),
    );
    open('/company/login?next=%2Fcompany%2Fsettings%2Faccount');
    await logIn('ada@acme.example', 'correct horse battery');
    await waitFor(() => expect(navigateToUrl).toHaveBeenCalledWith('/company/settings/account'), { timeout: 20_000 });
    expect(localStorage.getItem('token')).toBe('a.e30.c');
    const [salt, login] = fetchMock.mock.calls as [string, RequestInit][];
    expect(JSON.parse(salt[1].body as string)).toEqual({ username: 'ada@acme.example' });
    // What travels is the secret derived from the password, never the password.
    const sent = JSON.parse(login[1].body as string);
    expect(sent).toEqual({ username: 'ada@acme.example', password: expect.stringMatching(AUTH_SECRET) });
    expect(login[1].body).not.toContain('correct horse battery');
  });

  it('when the login answers an MFA challenge, then the challenge id is the session token and the MFA page opens', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/account/token/salt'
        ? answer(200, SALT)
        : answer(200, { mfa_required: true, challenge_id: 'challenge-1' }),
    );
    open('/company/login');
    await logIn('ada@acme.example', 'correct horse battery');
    await waitFor(() => expect(navigateToUrl).toHaveBeenCalledWith('/company/login/mfa?next=%2Fcompany%2Fincidents'), {
      timeout: 20_000,
    });
    expect(localStorage.getItem('token')).toBe('challenge-1');
  });

  it('when the token says MFA must be set up first (company requires it), then the MFA set-up dialog opens', async () => {
    const payload = Buffer.from(JSON.stringify({ mfa_enrollment_required: true })).toString('base64url');
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/account/token/salt'
        ? answer(200, SALT)
        : url === '/api/account/token'
          ? answer(200, { token: `a.${payload}.c` })
          : answer(403, { message: 'MFA setup required' }),
    );
    open('/company/login');
    await logIn('ada@acme.example', 'correct horse battery');
    await waitFor(() => expect(navigateToUrl).toHaveBeenCalledWith('/company/settings/account/mfa'), {
      timeout: 20_000,
    });
  });

  it('when next points elsewhere than this site, then incidents is used', () => {
    expect(safeNextPath('https://evil.example/')).toBe('/company/incidents');
    expect(safeNextPath('//evil.example/')).toBe('/company/incidents');
    expect(safeNextPath(null)).toBe('/company/incidents');
    expect(safeNextPath('/company/settings/account')).toBe('/company/settings/account');
  });
});

describe('MFA page', () => {
  it('when opened without a challenge, then the login page shows', async () => {
    const router = open('/company/login/mfa');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/company/login');
  });

  it('when 6 digits are typed, then the code is sent by itself with the challenge id; a wrong code marks the box red', async () => {
    localStorage.setItem('token', 'challenge-1');
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Invalid code' }));
    open('/company/login/mfa');
    const box = await screen.findByLabelText('Authentication code');
    fireEvent.change(box, { target: { value: '12345' } });
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: '123456' } });
    await waitFor(() => expect(box).toHaveAttribute('aria-invalid', 'true'));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/account/token/mfa');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer challenge-1');
    expect(JSON.parse(init.body as string)).toEqual({ challenge_code: '123456' });

    fetchMock.mockImplementation(async (target: string) =>
      target === '/api/account/token/mfa'
        ? answer(200, { token: 'a.e30.c' })
        : answer(403, { message: 'MFA required' }),
    );
    fireEvent.change(box, { target: { value: '654321' } });
    await waitFor(() => expect(navigateToUrl).toHaveBeenCalledWith('/company/incidents'));
    expect(localStorage.getItem('token')).toBe('a.e30.c');
  });
});

describe('password pages', () => {
  it('when a reset is asked, then the e-mail is the Bearer and the page says an email with instructions has been sent', async () => {
    fetchMock.mockResolvedValue(answer(204));
    open('/company/password/reset');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'nobody@acme.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send instructions' }));
    expect(await screen.findByText(/an email with instructions has been sent/)).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/account/profile/password/reset');
    expect(init.method).toBe('PUT');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer nobody@acme.example');
  });

  it('when the passwords differ, then "Passwords do not match"; without a token, "Failed to reset password"', async () => {
    open('/company/password/change');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'a new passphrase' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'something else' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'a new passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to reset password');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('when the link token is used, then it is the Bearer of the password change', async () => {
    fetchMock.mockResolvedValue(answer(204));
    open('/company/password/change?token=link-token');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'a new passphrase' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'a new passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Your password has been set.', undefined, { timeout: 20_000 })).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.find(([called]) => called === '/api/account/profile')!;
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer link-token');
    // A new password makes new keys: the derived secret, its salt, and the key pairs sealed under it travel.
    const sent = JSON.parse(init.body as string);
    expect(sent.password).toMatch(AUTH_SECRET);
    expect(sent.kdf_salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(sent.keys.unlock.method).toBe('password');
    expect(init.body).not.toContain('a new passphrase');
  });
});

describe('set-password links keep their token out of the address bar', () => {
  it.each([
    ['an invitation link (token in the fragment)', '/company/password/change#token=link-token'],
    ['a reset link (token in the query, spec §2)', '/company/password/change?token=link-token'],
  ])('when %s opens, then the token leaves the address and still sets the password', async (_link, path) => {
    fetchMock.mockResolvedValue(answer(204));
    const router = open(path);
    await screen.findByLabelText('New password');
    await waitFor(() => expect(router.state.location).toMatchObject({ search: '', hash: '' }));
    expect(router.state.location.pathname).toBe('/company/password/change');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a new passphrase' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'a new passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Your password has been set.')).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.find(([called]) => called === '/api/account/profile')!;
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer link-token');
  });
});

describe('password change page with the common-password check', () => {
  it('when an invitation or reset link sets a common password, then it is refused under the field and nothing is set', async () => {
    const hash = createHash('sha256').update('iloveyou123').digest('hex');
    fetchMock.mockImplementation(async (url: string) =>
      url.startsWith('/api/account/password/common/') ? answer(200, { suffixes: [hash.slice(2, 18)] }) : answer(204),
    );
    open('/company/password/change?token=link-token');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'ILoveYou123' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'ILoveYou123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('This password is too common; choose another')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([`/api/account/password/common/${hash.slice(0, 2)}`]);

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a rarer passphrase 7' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'a rarer passphrase 7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Your password has been set.')).toBeInTheDocument();
  });
});

describe('SSO page', () => {
  it('when opened, then the e-mail form is a real form POST to the SSO redirect endpoint', async () => {
    open('/company/login/sso');
    const email = await screen.findByLabelText('Email');
    const form = email.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/account/company/sso/redirect');
    expect(email).toHaveAttribute('name', 'email');
    expect(screen.getByRole('link', { name: 'Log in with email and password' })).toHaveAttribute(
      'href',
      '/company/login',
    );
  });

  it('when the IdP returns with a code, then it is exchanged once and the user signed in', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/account/company/sso/token'
        ? answer(200, { token: 'a.e30.c' })
        : answer(403, { message: 'MFA required' }),
    );
    open('/company/login/sso?code=one-time');
    await waitFor(() => expect(navigateToUrl).toHaveBeenCalledWith('/company/incidents'));
    const exchanges = fetchMock.mock.calls.filter(([url]) => url === '/api/account/company/sso/token');
    expect(exchanges).toHaveLength(1);
    expect(JSON.parse(exchanges[0][1].body as string)).toEqual({ code: 'one-time' });
  });

  it('when the IdP returns with a code, then the code leaves the address at once and only the next path stays', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/account/company/sso/token'
        ? answer(200, { token: 'a.e30.c' })
        : answer(403, { message: 'MFA required' }),
    );
    const router = open('/company/login/sso?code=one-time&next=%2Fcompany%2Fincidents%2F42');
    await waitFor(() => expect(navigateToUrl).toHaveBeenCalledWith('/company/incidents/42'));
    expect(router.state.location).toMatchObject({ pathname: '/company/login/sso', hash: '' });
    expect(new URLSearchParams(router.state.location.search).get('code')).toBeNull();
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/company/incidents/42');
    const exchanges = fetchMock.mock.calls.filter(([url]) => url === '/api/account/company/sso/token');
    expect(exchanges.map(([, init]) => [init.method, JSON.parse(init.body as string)])).toEqual([
      ['POST', { code: 'one-time' }],
    ]);
  });

  it.each([
    ['no_account', 'there is no Whistle account for you in this company'],
    ['sso_failed', 'your identity provider’s answer could not be accepted'],
    ['sso_unavailable', 'Single sign-on is not set up'],
    ['something-else', 'Single sign-on failed. Please try again'],
  ])(
    'when the IdP sign-in was refused with %s, then the page says why and the form is there to try again',
    async (reason, text) => {
      open(`/company/login/sso?error=${reason}`);
      expect(await screen.findByRole('alert')).toHaveTextContent(text);
      expect(screen.getByLabelText('Email')).toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalledWith('/api/account/company/sso/token', expect.anything());
    },
  );
});
