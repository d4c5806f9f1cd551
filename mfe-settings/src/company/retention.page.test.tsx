import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { createApiClient, type StaffSession, type StaffState } from '@whistle/api-client';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { settingsRoutes } from '../settings.routes';
import { fakeKeyring } from '../../test/fake-keyring';

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function adminSession(): StaffSession {
  const state = {
    profile: { uuid: 'u', email: 'ada@acme.example', full_name: 'Ada Lovelace', roles: ['ADMIN'] },
    company: { url_identifier: 'acme' },
  } as unknown as StaffState;
  return {
    api: createApiClient({ getToken: () => 'staff-token' }),
    staff: async () => state,
    reloadStaff: async () => state,
    subscribe: () => () => undefined,
    replaceToken: async () => undefined,
    keyring: fakeKeyring(),
  };
}

let english: i18n;
let french: i18n;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  [english, french] = await Promise.all([initTestI18n<i18n>('en'), initTestI18n<i18n>('fr')]);
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => fetchMock.mockRestore());

function open(instance = english) {
  const router = createMemoryRouter(settingsRoutes, { initialEntries: ['/company/settings/retention'] });
  renderWithI18n(
    <StaffSessionContext.Provider value={adminSession()}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    instance,
  );
}

const sent = (call: number) => {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { url, method: init.method ?? 'GET', body: init.body ? JSON.parse(init.body as string) : undefined };
};

describe('data retention page', () => {
  it('when it opens, then the policy in force shows with what is deleted and when; a new period is saved and "Updated settings" shows', async () => {
    fetchMock
      .mockResolvedValueOnce(answer(200, { retention_months: 12, warning_days: 14 }))
      .mockResolvedValueOnce(answer(200, { retention_months: 24, warning_days: 14 }));
    open();
    const field = await screen.findByLabelText('Months to keep closed cases');
    expect(screen.getByRole('heading', { name: 'Data retention', level: 1 })).toBeInTheDocument();
    expect(field).toHaveValue(12);
    expect(field).toHaveAccessibleDescription(expect.stringContaining('deleted for good'));
    expect(screen.getByText(/warned by e-mail 14 days before a case is deleted/)).toBeInTheDocument();
    expect(screen.getByText(/its keys at once/)).toBeInTheDocument();
    expect(sent(0)).toEqual({ url: '/api/incident/retention', method: 'GET', body: undefined });

    fireEvent.change(field, { target: { value: '24' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Updated settings')).toBeInTheDocument();
    expect(sent(1)).toEqual({ url: '/api/incident/retention', method: 'PUT', body: { retention_months: 24 } });
  });

  it('when the months are not a whole number from 1 to 120, then the field says so and nothing is sent', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { retention_months: 12, warning_days: 14 }));
    open();
    const field = await screen.findByLabelText('Months to keep closed cases');
    for (const value of ['0', '121', '1.5', '']) {
      fireEvent.change(field, { target: { value } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Enter a whole number of months from 1 to 120')).toBeInTheDocument();
    }
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('when the server refuses the value, then its message shows by the field', async () => {
    fetchMock
      .mockResolvedValueOnce(answer(200, { retention_months: 12, warning_days: 14 }))
      .mockResolvedValueOnce(
        answer(400, { message: 'Invalid request body', errors: { retention_months: ['Refused by the server'] } }),
      );
    open();
    fireEvent.change(await screen.findByLabelText('Months to keep closed cases'), { target: { value: '6' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Refused by the server')).toBeInTheDocument();
    expect(screen.queryByText('Updated settings')).not.toBeInTheDocument();
  });

  it('when it is read in French, then the page and its warning days are in French', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { retention_months: 12, warning_days: 1 }));
    open(french);
    expect(await screen.findByLabelText('Mois de conservation des dossiers clos')).toHaveValue(12);
    await waitFor(() => expect(screen.getByText(/prévenus par e-mail 1 jour avant/)).toBeInTheDocument());
  });
});
