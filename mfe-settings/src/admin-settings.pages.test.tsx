import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { createApiClient, type StaffSession, type StaffState } from '@whistle/api-client';
import type { Role } from '@whistle/contracts';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { settingsRoutes } from './settings.routes';
import { fakeKeyring } from '../test/fake-keyring';
import { chooseRowAction } from '../test/row-menu';

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const ids = {
  admin: '00000000-0000-4000-8000-000000000001',
  reviewer: '00000000-0000-4000-8000-000000000002',
  handler: '00000000-0000-4000-8000-000000000003',
  otherHandler: '00000000-0000-4000-8000-000000000004',
  fraud: '00000000-0000-4000-8000-0000000000a1',
  bribery: '00000000-0000-4000-8000-0000000000a2',
  office: '00000000-0000-4000-8000-0000000000b1',
};
const user = (uuid: string, full_name: string, roles: Role[]) => ({
  uuid,
  email: `${uuid}@acme.example`,
  full_name,
  roles,
  mfa_auth_factor_id: null,
  last_sign_in_at: null,
  invitation_pending: false,
});

function companyState(): StaffState {
  return {
    profile: user(ids.admin, 'Ada Admin', ['ADMIN']),
    company: {
      uuid: '00000000-0000-4000-8000-0000000000c1',
      name: 'Acme',
      country: 'DE',
      url_identifier: 'acme',
      public_key: 'pk',
      logo: null,
      title: null,
      description: null,
      translations: {},
      languages: { offered: ['en', 'fr'], default: 'en' },
      mfa_required: false,
      sso_enabled: false,
      settings: {
        resolution_deadline_days: 14,
        notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true },
      },
      user_profiles: [
        user(ids.admin, 'Ada Admin', ['ADMIN']),
        user(ids.reviewer, 'Rita Reviewer', ['REVIEWER']),
        user(ids.handler, 'Hank Handler', ['HANDLER']),
        user(ids.otherHandler, 'Olga Other', ['HANDLER']),
      ],
      categories: [
        { uuid: ids.fraud, name: 'Fraud', parent_uuid: null, is_active: true, user_profiles: [ids.handler] },
        { uuid: ids.bribery, name: 'Bribery', parent_uuid: ids.fraud, is_active: true, user_profiles: [] },
      ],
      locations: [{ uuid: ids.office, name: 'Head office', is_active: true }],
    },
  } as StaffState;
}

function fakeSession(state = companyState()) {
  const listeners = new Set<(state: StaffState) => void>();
  const session = {
    api: createApiClient({ getToken: () => 'staff-token' }),
    staff: async () => state,
    reloadStaff: jest.fn(async () => {
      listeners.forEach((listener) => listener(state));
      return state;
    }),
    subscribe: (listener: (state: StaffState) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    replaceToken: jest.fn(async () => undefined),
    keyring: fakeKeyring(),
  };
  return session as StaffSession & typeof session;
}

let i18nInstance: i18n;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  i18nInstance = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => fetchMock.mockRestore());

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

const sent = (call: number) => {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { url, method: init.method, body: init.body ? JSON.parse(init.body as string) : undefined };
};

describe('reporting labels', () => {
  it('when the list opens, then each label shows its sub-categories, assignees and state', async () => {
    open('/company/settings/categories');
    const table = await screen.findByRole('table', { name: 'Reporting labels' });
    const fraud = within(table).getByRole('rowheader', { name: 'Fraud' }).closest('tr')!;
    expect(fraud).toHaveTextContent('Hank Handler');
    expect(fraud).toHaveTextContent('Active');
    expect(within(table).getByText('Bribery').closest('tr')).toHaveClass('settings-sub');
    // The row's actions in one menu, deletion in the danger style; the table scrolls in its own region.
    expect(screen.getByRole('region', { name: 'Reporting labels' })).toContainElement(table);
    fireEvent.click(within(fraud).getByRole('button', { name: 'Actions for Fraud' }));
    const items = within(screen.getByRole('menu', { name: 'Actions for Fraud' })).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Edit', 'Deactivate', 'Delete']);
    expect(items[2]).toHaveClass('wh-menu__item--danger');
    fireEvent.click(items[0]!);
    expect(await screen.findByRole('heading', { level: 1, name: /Fraud|Edit/ })).toBeInTheDocument();
  });

  it('when a label is deleted, then "Deleting cannot be undone" is asked first, and the answer shows "Deleted category"', async () => {
    const { session } = open('/company/settings/categories');
    await chooseRowAction('Fraud', 'Delete');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Deleting cannot be undone');
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toHaveClass('wh-button--danger');
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockResolvedValueOnce(answer(200, { outcome: 'deleted' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted category')).toBeInTheDocument();
    expect(sent(0)).toEqual({ url: `/api/account/company/category/${ids.fraud}`, method: 'DELETE', body: undefined });
    expect(session.reloadStaff).toHaveBeenCalled();
  });

  it('when a label carried by cases is deleted, then the page says it was deactivated instead', async () => {
    open('/company/settings/categories');
    await chooseRowAction('Fraud', 'Delete');
    fetchMock.mockResolvedValueOnce(answer(200, { outcome: 'deactivated' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/it was deactivated instead of deleted/)).toBeInTheDocument();
  });

  it('when the admin turns on names on the report form, then shows_recipient_names is sent; it starts off', async () => {
    const { session } = open('/company/settings/categories');
    const names = await screen.findByRole('checkbox', { name: 'Show the case team’s names on the report form' });
    expect(names).not.toBeChecked();
    fireEvent.click(names);
    fetchMock.mockResolvedValueOnce(answer(200, {}));
    fireEvent.click(within(names.closest('form')!).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated settings')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: '/api/account/company',
      method: 'PUT',
      body: { settings: { shows_recipient_names: true } },
    });
    expect(session.reloadStaff).toHaveBeenCalled();
  });

  it('when a label is deactivated, then is_active false is sent and "Updated category" shows', async () => {
    open('/company/settings/categories');
    fetchMock.mockResolvedValueOnce(answer(200, {}));
    await chooseRowAction('Fraud', 'Deactivate');
    expect(await screen.findByText('Updated category')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: `/api/account/company/category/${ids.fraud}`,
      method: 'PUT',
      body: { is_active: false },
    });
  });

  it('when a label is added, then name is required, the picker offers reviewers only, and the list shows "Added category"', async () => {
    const { router } = open('/company/settings/categories/add');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    const picker = screen.getByRole('group', { name: 'Assign new reports to' });
    expect(
      within(picker)
        .getAllByRole('checkbox')
        .map((box) => box.parentElement?.textContent),
    ).toEqual(['Rita Reviewer']);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Supply chain' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add sub-category' }));
    fireEvent.change(screen.getByLabelText('Sub-category 1'), { target: { value: 'Sanctions' } });
    fireEvent.click(within(picker).getByLabelText('Rita Reviewer'));
    fetchMock.mockResolvedValueOnce(answer(201, {}));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Added category')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/company/settings/categories');
    expect(sent(0)).toEqual({
      url: '/api/account/company/category/',
      method: 'POST',
      body: { name: 'Supply chain', management_categories: [{ name: 'Sanctions' }], user_profiles: [ids.reviewer] },
    });
  });

  it('when a label is edited, then the picker also offers who is already assigned, a removed sub-category is left out, and a server field error shows', async () => {
    open(`/company/settings/categories/edit/${ids.fraud}`);
    const picker = await screen.findByRole('group', { name: 'Assign new reports to' });
    expect(within(picker).getByLabelText('Hank Handler')).toBeChecked();
    expect(within(picker).queryByLabelText('Olga Other')).toBeNull();
    expect(screen.getByLabelText('Sub-category 1')).toHaveValue('Bribery');
    fireEvent.click(screen.getByRole('button', { name: 'Remove sub-category Bribery' }));

    fetchMock.mockResolvedValueOnce(
      answer(400, { message: 'Bad Request', errors: { name: ['A reporting label with this name already exists'] } }),
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Theft' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A reporting label with this name already exists')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: `/api/account/company/category/${ids.fraud}`,
      method: 'PUT',
      body: { name: 'Theft', management_categories: [], user_profiles: [ids.handler] },
    });

    fetchMock.mockResolvedValueOnce(answer(200, {}));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Edited category')).toBeInTheDocument();
  });
});

describe('locations', () => {
  it('when a location is added with a taken name, then the server message shows by the field; then "Added location"', async () => {
    open('/company/settings/locations/add');
    fetchMock.mockResolvedValueOnce(
      answer(400, { message: 'Bad Request', errors: { name: ['A location with this name already exists'] } }),
    );
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Head office' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A location with this name already exists')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');

    fetchMock.mockResolvedValueOnce(answer(201, {}));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Warehouse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Added location')).toBeInTheDocument();
    expect(sent(1)).toEqual({ url: '/api/account/company/location/', method: 'POST', body: { name: 'Warehouse' } });
  });

  it('when a location is deleted after the confirmation, then "Deleted location" shows', async () => {
    open('/company/settings/locations');
    await chooseRowAction('Head office', 'Delete');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Deleting cannot be undone');
    fetchMock.mockResolvedValueOnce(answer(200, { outcome: 'deleted' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted location')).toBeInTheDocument();
    expect(sent(0).url).toBe(`/api/account/company/location/${ids.office}`);
  });
});

describe('company, deadline and notifications', () => {
  it('when the company name is emptied, then it is required; saved, "Updated company" shows', async () => {
    open('/company/settings/company');
    const name = await screen.findByLabelText('Company name');
    fireEvent.change(name, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(name, { target: { value: 'Acme Europe' } });
    fetchMock.mockResolvedValueOnce(answer(200, {}));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated company')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: '/api/account/company',
      method: 'PUT',
      body: { name: 'Acme Europe', country: 'DE' },
    });
  });

  it('when the deadline is emptied, then 0 is sent (spec §5), and "Updated settings" shows', async () => {
    open('/company/settings/deadline');
    const days = await screen.findByLabelText('Days to resolve a case');
    expect(days).toHaveValue(14);
    fireEvent.change(days, { target: { value: '' } });
    fetchMock.mockResolvedValue(answer(200, {}));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated settings')).toBeInTheDocument();
    expect(sent(0).body).toEqual({ settings: { resolution_deadline_days: 0 } });
    fireEvent.change(days, { target: { value: '21' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(sent(1).body).toEqual({ settings: { resolution_deadline_days: 21 } });
  });

  it('when a notification switch is turned off, then all four are sent and "Updated settings" shows', async () => {
    open('/company/settings/notifications');
    const deadlines = await screen.findByLabelText('A deadline is near or passed');
    expect(deadlines).toBeChecked();
    fireEvent.click(deadlines);
    fetchMock.mockResolvedValueOnce(answer(200, {}));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated settings')).toBeInTheDocument();
    expect(sent(0).body).toEqual({
      settings: {
        notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: false },
      },
    });
  });
});
