import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { answer, companyState, fakeSession, openSettings, sentRequest } from '../../test/security-pages';

let en: i18n;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  en = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => fetchMock.mockRestore());

const open = (path: string, session = fakeSession(), instance = en) => openSettings(path, instance, session);
const call = (index: number) => sentRequest(fetchMock, index);

describe('security page (MFA policy)', () => {
  it('when an admin requires MFA, then it is sent, the staff state reloads, "Updated settings" shows, and the members without MFA are named', async () => {
    const { session } = open('/company/settings/security');
    const mfa = await screen.findByRole('switch', { name: 'Require multi-factor authentication for all staff' });
    expect(mfa).not.toBeChecked();
    expect(mfa).toHaveAccessibleDescription(/taken to set it up the next time they sign in/);
    expect(mfa).toHaveAccessibleDescription(/2 members have not set up multi-factor authentication yet/);
    expect(screen.getByText(/Rita Reviewer, Hank Handler/)).toBeInTheDocument();
    fireEvent.click(mfa);
    fetchMock.mockResolvedValueOnce(answer(200, { mfa_required: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Save security settings' }));
    expect(await screen.findByText('Updated settings')).toBeInTheDocument();
    expect(call(0)).toEqual({ url: '/api/account/company/mfa', method: 'PUT', body: { mfa_required: true } });
    expect(session.reloadStaff).toHaveBeenCalled();
  });

  it('when the company already requires MFA, then the switch is on and turning it off sends false', async () => {
    open('/company/settings/security', fakeSession(companyState(['ADMIN'], true)));
    const mfa = await screen.findByRole('switch', { name: 'Require multi-factor authentication for all staff' });
    expect(mfa).toBeChecked();
    fireEvent.click(mfa);
    fetchMock.mockResolvedValueOnce(answer(200, { mfa_required: false }));
    fireEvent.click(screen.getByRole('button', { name: 'Save security settings' }));
    await screen.findByText('Updated settings');
    expect(call(0).body).toEqual({ mfa_required: false });
  });
});

describe('settings sidebar', () => {
  it('when an admin opens settings, then Single sign-on and Security come after the entries of spec §2', async () => {
    open('/company/settings/security');
    await screen.findByRole('heading', { name: 'Security', level: 1 });
    const links = Array.from(screen.getByRole('navigation', { name: 'Settings' }).querySelectorAll('a'));
    const labels = links.map((link) => link.textContent);
    expect(labels.slice(0, 6)).toEqual([
      'Account',
      'Reporting labels',
      'Locations',
      'Company',
      'Resolution deadline',
      'Notifications',
    ]);
    expect(labels.slice(-2)).toEqual(['Single sign-on', 'Security']);
    expect(links.at(-2)).toHaveAttribute('href', '/company/settings/sso');
    expect(links.at(-1)).toHaveAttribute('href', '/company/settings/security');
  });

  it('when a reviewer opens settings, then neither entry is in the sidebar', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url) === '/api/account/profile/keys'
        ? answer(200, { password: null, person: null })
        : answer(200, { language: 'en', notifications: {} }),
    );
    open('/company/settings/account', fakeSession(companyState(['REVIEWER'])));
    await screen.findByRole('heading', { name: 'Account', level: 1 });
    const sidebar = screen.getByRole('navigation', { name: 'Settings' });
    await waitFor(() =>
      expect(Array.from(sidebar.querySelectorAll('a')).map((link) => link.textContent)).toEqual(['Account']),
    );
  });
});
