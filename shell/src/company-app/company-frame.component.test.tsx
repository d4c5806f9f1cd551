import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { navigateToUrl } from 'single-spa';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { staffSession } from '../session/staff-session';
import { CompanyFrame } from './company-frame.component';

jest.mock('single-spa', () => ({ navigateToUrl: jest.fn() }));

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const profile = (roles: string[]) => ({
  uuid: 'u',
  email: 'grace@acme.example',
  full_name: 'Grace Brewster Hopper',
  roles,
  mfa_auth_factor_id: null,
});

let i18nInstance: i18n;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  i18nInstance = await initTestI18n<i18n>('en');
});
beforeEach(async () => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
  jest.mocked(navigateToUrl).mockReset();
  fetchMock.mockResolvedValue(answer(204));
  await staffSession.signOut();
  fetchMock.mockReset();
});
afterEach(() => {
  fetchMock.mockRestore();
  jest.useRealTimers();
});

function signedInAs(roles: string[]) {
  localStorage.setItem('token', 'staff-token');
  fetchMock.mockImplementation(async (url: string) => {
    if (url === '/api/account/company/profile/') return answer(200, profile(roles));
    if (url === '/api/account/company/') return answer(200, { url_identifier: 'acme' });
    if (url === '/api/account/profile/keys') return answer(403, { message: 'MFA required' });
    if (url === '/api/account/token/refresh') return answer(200, { token: 'renewed-token' });
    if (url === '/api/account/token/revoke') return answer(204);
    throw new Error(`unexpected ${url}`);
  });
}

const visit = (path: string) => window.history.replaceState(null, '', path);

describe('company frame', () => {
  it('when profile and company cannot be loaded, then the guard sends the user to login with next', async () => {
    visit('/company/settings/account?tab=1');
    renderWithI18n(<CompanyFrame />, i18nInstance);
    await waitFor(() =>
      expect(navigateToUrl).toHaveBeenCalledWith('/company/login?next=%2Fcompany%2Fsettings%2Faccount%3Ftab%3D1'),
    );
  });

  it('when a reviewer opens team, then only Incidents is in the navigation and the page becomes incidents', async () => {
    signedInAs(['REVIEWER']);
    visit('/company/team');
    renderWithI18n(<CompanyFrame />, i18nInstance);
    const avatar = await screen.findByRole('button', { name: 'Account menu of Grace Brewster Hopper' });
    expect(avatar).toHaveTextContent('GH');
    expect(window.location.pathname).toBe('/company/incidents');
    const navigation = screen.getByRole('navigation', { name: 'Main' });
    expect(Array.from(navigation.querySelectorAll('a')).map((link) => link.textContent)).toEqual(['Incidents']);
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/company/settings/account');
  });

  it('when an admin opens the avatar menu and logs out, then roles show, the token is revoked and cleared, and the root opens', async () => {
    signedInAs(['ADMIN', 'HANDLER']);
    visit('/company/incidents');
    renderWithI18n(<CompanyFrame />, i18nInstance);
    fireEvent.click(await screen.findByRole('button', { name: /Account menu of/ }));
    expect(screen.getByText('Admin, Handler')).toBeInTheDocument();
    expect(
      Array.from(screen.getByRole('navigation', { name: 'Main' }).querySelectorAll('a')).map(
        (link) => link.textContent,
      ),
    ).toEqual(['Incidents', 'Team', 'Reporting']);
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(navigateToUrl).toHaveBeenCalledWith('/'));
    const revoke = fetchMock.mock.calls.find(([url]) => url === '/api/account/token/revoke');
    expect(revoke?.[1]).toMatchObject({ method: 'POST', headers: { Authorization: 'Bearer staff-token' } });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('when the app stays open, then the 15-minute token is renewed every 10 minutes', async () => {
    jest.useFakeTimers();
    signedInAs(['ADMIN']);
    visit('/company/incidents');
    renderWithI18n(<CompanyFrame />, i18nInstance);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(10 * 60 * 1000);
    });
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/account/token/refresh')).toBe(true);
    expect(localStorage.getItem('token')).toBe('renewed-token');
  });
});
