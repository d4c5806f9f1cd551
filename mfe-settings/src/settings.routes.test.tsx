import { createHash, webcrypto } from 'node:crypto';
import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { ApiError, createApiClient, type StaffSession, type StaffState } from '@whistle/api-client';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { settingsRoutes } from './settings.routes';
import { fakeKeyring, type FakeKeyring } from '../test/fake-keyring';

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const profile = {
  uuid: 'u',
  email: 'ada@acme.example',
  full_name: 'Ada Lovelace',
  roles: ['ADMIN'],
  mfa_auth_factor_id: null,
};

function fakeSession(): StaffSession & { replaceToken: jest.Mock; reloadStaff: jest.Mock; keyring: FakeKeyring } {
  const state = { profile, company: { url_identifier: 'acme' } } as unknown as StaffState;
  return {
    api: createApiClient({ getToken: () => 'staff-token' }),
    staff: async () => state,
    reloadStaff: jest.fn(async () => state),
    subscribe: () => () => undefined,
    replaceToken: jest.fn(async () => undefined),
    keyring: fakeKeyring(),
  };
}

const mailPreferences = {
  language: 'de',
  notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true },
};

let i18nInstance: i18n;
/** What the tests program: every call but the account page's loading of mail preferences and unlock methods. */
let fetchMock: jest.Mock;
beforeAll(async () => {
  i18nInstance = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock = jest.fn();
  jest
    .spyOn(globalThis, 'fetch')
    .mockImplementation((input, init) =>
      (init?.method ?? 'GET') !== 'GET'
        ? fetchMock(input, init)
        : String(input) === '/api/account/profile/notifications'
          ? Promise.resolve(answer(200, mailPreferences))
          : String(input) === '/api/account/profile/keys'
            ? Promise.resolve(answer(200, { password: null, person: null }))
            : fetchMock(input, init),
    );
});
afterEach(() => jest.restoreAllMocks());

function open(path: string, session = fakeSession()) {
  const router = createMemoryRouter(settingsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    i18nInstance,
  );
  return { router, session };
}

describe('settings remote routes', () => {
  it('when /company/settings opens for an admin, then account settings show, with the sidebar of spec §2, data retention and the audit log', async () => {
    const { router } = open('/company/settings');
    expect(await screen.findByRole('heading', { name: 'Account', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/company/settings/account');
    const sidebar = screen.getByRole('navigation', { name: 'Settings' });
    expect(Array.from(sidebar.querySelectorAll('a')).map((link) => link.textContent)).toEqual([
      'Account',
      'Reporting labels',
      'Locations',
      'Company',
      'Resolution deadline',
      'Notifications',
      'Reply templates',
      'Data retention',
      'Audit log',
      'Single sign-on',
      'Security',
    ]);
  });

  it('when a reviewer opens settings, then only Account is in the sidebar', async () => {
    const session = fakeSession();
    const reviewer = {
      profile: { ...profile, roles: ['REVIEWER'] },
      company: { url_identifier: 'acme' },
    } as unknown as StaffState;
    session.staff = async () => reviewer;
    open('/company/settings/account', session);
    await screen.findByRole('heading', { name: 'Account', level: 1 });
    const sidebar = screen.getByRole('navigation', { name: 'Settings' });
    expect(Array.from(sidebar.querySelectorAll('a')).map((link) => link.textContent)).toEqual(['Account']);
  });

  it('when a settings page that does not exist opens, then a translated page-not-found shows', async () => {
    open('/company/settings/nothing-here');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('when the name is saved, then it is sent, the staff state reloads and "Updated account" shows; the e-mail is read-only', async () => {
    fetchMock.mockResolvedValue(answer(200, { ...profile, full_name: 'Ada King' }));
    const { session } = open('/company/settings/account');
    const email = await screen.findByLabelText('Email');
    expect(email).toHaveAttribute('readonly');
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Ada King' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated account')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/account/profile');
    expect(JSON.parse(init.body as string)).toEqual({ full_name: 'Ada King' });
    expect(session.reloadStaff).toHaveBeenCalled();
  });

  it('when the new passwords differ, then "Passwords do not match" shows and nothing is sent; otherwise the new token replaces the old', async () => {
    const { session } = open('/company/settings/account');
    await screen.findByLabelText('Current password');
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old password here' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new password here' } });
    fireEvent.change(screen.getByLabelText('Repeat new password'), { target: { value: 'other password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Repeat new password'), { target: { value: 'new password here' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Updated account')).toBeInTheDocument();
    // The keyring derives and sends: neither password goes out from this page.
    expect(session.keyring.changePassword).toHaveBeenCalledWith('old password here', 'new password here');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(session.replaceToken).toHaveBeenCalledWith('new-token');
  });

  it('when the keyring finds the current password wrong, then it says so under that field and the token stays', async () => {
    const session = fakeSession();
    session.keyring.changePassword.mockRejectedValueOnce(
      new ApiError('/api/account/profile', 400, 'Bad Request', {
        message: 'Bad Request',
        errors: { current_password: ['The current password is wrong'] },
      }),
    );
    open('/company/settings/account', session);
    fireEvent.change(await screen.findByLabelText('Current password'), { target: { value: 'not my password' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new password here' } });
    fireEvent.change(screen.getByLabelText('Repeat new password'), { target: { value: 'new password here' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is wrong')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(session.replaceToken).not.toHaveBeenCalled();
  });

  it('when the new password is a common one, then it is refused under the field and the password is not changed', async () => {
    const jsdomCrypto = globalThis.crypto;
    // jsdom has no WebCrypto digest: the browser's, as Node provides it.
    Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
    try {
      const hash = createHash('sha256').update('qwertyuiop').digest('hex');
      fetchMock.mockImplementation(async (url: string) =>
        url.startsWith('/api/account/password/common/')
          ? answer(200, { suffixes: [hash.slice(2, 18)] })
          : answer(200, { ...profile, token: 'new-token' }),
      );
      const { session } = open('/company/settings/account');
      await screen.findByLabelText('Current password');
      fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old password here' } });
      fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'QWERTYuiop' } });
      fireEvent.change(screen.getByLabelText('Repeat new password'), { target: { value: 'QWERTYuiop' } });
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
      expect(await screen.findByText('This password is too common; choose another')).toBeInTheDocument();
      expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([`/api/account/password/common/${hash.slice(0, 2)}`]);
      expect(session.replaceToken).not.toHaveBeenCalled();
      expect(session.keyring.changePassword).not.toHaveBeenCalled();
    } finally {
      Object.defineProperty(globalThis, 'crypto', { value: jsdomCrypto, configurable: true });
    }
  });

  it('when MFA set-up gets a wrong code, then the same dialog and QR code stay with error styling; the right code enables it', async () => {
    const { router, session } = open('/company/settings/account');
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('existing MFA devices invalid');

    fetchMock.mockResolvedValueOnce(answer(200, { qr_code: 'data:image/png;base64,AAAA', secret: 'JBSWY3DPEHPK3PXP' }));
    fireEvent.click(screen.getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByRole('img', { name: /QR code/ })).toHaveAttribute('src', 'data:image/png;base64,AAAA');
    expect(screen.getByLabelText('6-digit code')).toHaveFocus();

    fetchMock.mockResolvedValueOnce(
      answer(400, { message: 'Bad Request', errors: { challenge_code: ['Invalid code'] } }),
    );
    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByLabelText('6-digit code')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('This code is not valid. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /QR code/ })).toHaveAttribute('src', 'data:image/png;base64,AAAA');

    fetchMock.mockResolvedValueOnce(answer(200, { token: 'mfa-token' }));
    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Updated account')).toBeInTheDocument();
    expect(session.replaceToken).toHaveBeenCalledWith('mfa-token');
    await waitFor(() => expect(router.state.location.pathname).toBe('/company/settings/account'));
    // The router's state changes before React renders the page without the dialog: wait for that render too.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('when a member turns deadline mails off and picks Polish among the eight staff languages, then their preferences are sent and "Updated account" shows', async () => {
    open('/company/settings/account');
    const deadlines = await screen.findByRole('checkbox', {
      name: 'A deadline of an incident I work on is near or passed',
    });
    expect(deadlines).toBeChecked();
    fireEvent.click(deadlines);
    const language = screen.getByRole('combobox', { name: 'Language of my e-mails' });
    // The language stored for them is the one chosen.
    expect(language).toHaveValue('de');
    expect(
      within(language)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', 'Français', 'Deutsch', 'Español', 'Italiano', 'Nederlands', 'Polski', 'Português']);
    fireEvent.change(language, { target: { value: 'pl' } });
    const wanted = { language: 'pl', notifications: { ...mailPreferences.notifications, deadlines: false } };
    fetchMock.mockResolvedValueOnce(answer(200, wanted));
    fireEvent.click(screen.getByRole('button', { name: 'Save e-mail preferences' }));
    expect(await screen.findByText('Updated account')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/account/profile/notifications');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(init.body as string)).toEqual(wanted);
  });
});
