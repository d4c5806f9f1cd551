import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffSession, StaffState } from '@whistle/api-client';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { json, staffSession, staffState } from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

const me = '11111111-1111-4111-8111-111111111111';
const handler = '22222222-2222-4222-8222-222222222222';
const invited = '33333333-3333-4333-8333-333333333333';

function teamState(): StaffState {
  const state = staffState();
  state.company.user_profiles = [
    {
      uuid: me,
      email: 'ada@acme.example',
      full_name: 'Ada Lovelace',
      roles: ['ADMIN'],
      mfa_auth_factor_id: 'f0000000-0000-4000-8000-000000000001',
      last_sign_in_at: '2026-11-24T09:30:00.000Z',
      invitation_pending: false,
    },
    {
      uuid: handler,
      email: 'hal@acme.example',
      full_name: 'Hal Handler',
      roles: ['HANDLER'],
      mfa_auth_factor_id: null,
      last_sign_in_at: null,
      invitation_pending: false,
    },
    {
      uuid: invited,
      email: 'ivy@acme.example',
      full_name: 'Ivy Invited',
      roles: ['REVIEWER'],
      mfa_auth_factor_id: null,
      last_sign_in_at: null,
      invitation_pending: true,
    },
  ];
  return state;
}

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
const realFetch = global.fetch;
let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

function open(path: string, session: StaffSession = staffSession(undefined, teamState())) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  return router;
}

/** Opens the actions menu of `name`'s row and chooses `item`. */
async function choose(name: string, item: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  fireEvent.click(
    within(screen.getByRole('menu', { name: `Actions for ${name}` })).getByRole('menuitem', { name: item }),
  );
}

const sent = (call: number) => {
  const [url, init] = fetchMock.mock.calls[call]!;
  return { url, method: init.method, body: init.body ? JSON.parse(init.body as string) : undefined };
};

describe('team', () => {
  it('when the team opens, then each member shows roles, MFA and last sign-in or a pending invitation; nobody can remove themselves', async () => {
    open('/company/team');
    const table = await screen.findByRole('table', { name: 'Team' });
    const row = (name: string) =>
      within(table)
        .getByRole('rowheader', { name: new RegExp(name) })
        .closest('tr')!;
    expect(row('Ada Lovelace')).toHaveTextContent('(you)');
    expect(row('Ada Lovelace')).toHaveTextContent('On');
    // Your own row has one action, a button; the others' several, in a menu with removal in the danger style.
    expect(within(row('Ada Lovelace')).getByRole('button', { name: 'Change roles of Ada Lovelace' })).toBeVisible();
    expect(within(row('Ada Lovelace')).queryByRole('button', { name: /^Actions/ })).toBeNull();
    const menuOf = within(row('Hal Handler')).getByRole('button', { name: 'Actions for Hal Handler' });
    expect(menuOf).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(menuOf);
    const items = within(screen.getByRole('menu', { name: 'Actions for Hal Handler' })).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Change roles', 'Remove']);
    expect(items[1]).toHaveClass('wh-menu__item--danger');
    fireEvent.keyDown(items[0]!, { key: 'Escape' });
    expect(row('Hal Handler')).toHaveTextContent('Handler');
    expect(row('Hal Handler')).toHaveTextContent('Never');
    expect(row('Ivy Invited')).toHaveTextContent('Invitation sent');
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(within(row('Ivy Invited')).getByRole('button', { name: 'Actions for Ivy Invited' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Change roles', 'Send invitation again', 'Remove']);
  });

  it('when roles are changed, then at least one is required, the change is sent and "Updated roles" shows; the server refusing the last admin is shown', async () => {
    open('/company/team');
    await choose('Hal Handler', 'Change roles');
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Handler'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Choose at least one role')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByLabelText('Reviewer'));
    fetchMock.mockResolvedValueOnce(json(200, {}));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated roles')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: '/api/account/company/user_profile/',
      method: 'PUT',
      body: { uuid: handler, roles: ['REVIEWER'] },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Change roles of Ada Lovelace' }));
    const own = await screen.findByRole('dialog');
    expect(own).toHaveTextContent('sign in again');
    fireEvent.click(within(own).getByLabelText('Admin'));
    fireEvent.click(within(own).getByLabelText('Reviewer'));
    fetchMock.mockResolvedValueOnce(
      json(400, { message: 'Bad Request', errors: { roles: ['A company needs at least one admin'] } }),
    );
    fireEvent.click(within(own).getByRole('button', { name: 'Save' }));
    expect(await within(own).findByText('A company needs at least one admin')).toBeInTheDocument();
  });

  it('when a member is removed, then the confirmation comes first and "Removed member" after; an invitation can be sent again', async () => {
    open('/company/team');
    await choose('Hal Handler', 'Remove');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toHaveClass('wh-button--danger');
    expect(dialog).toHaveTextContent('open sessions end now');
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed member')).toBeInTheDocument();
    expect(sent(0)).toEqual({ url: '/api/account/company/user_profile/', method: 'DELETE', body: { uuid: handler } });

    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await choose('Ivy Invited', 'Send invitation again');
    expect(await screen.findByText('Invitation sent again')).toBeInTheDocument();
    expect(sent(1)).toEqual({
      url: '/api/account/company/user_profile/invitation',
      method: 'POST',
      body: { uuid: invited },
    });
  });

  it('when a member is invited, then fields are required, a refused address is shown by its field, and the team page says the invitation left', async () => {
    const router = open('/company/team/add');
    fireEvent.click(await screen.findByRole('button', { name: 'Send invitation' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@other.example' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'New Person' } });
    fetchMock.mockResolvedValueOnce(
      json(400, { message: 'Bad Request', errors: { email: ['This email address cannot be invited'] } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('This email address cannot be invited')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@acme.example' } });
    fireEvent.click(screen.getByLabelText('Reviewer'));
    fetchMock.mockResolvedValueOnce(json(201, {}));
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to new@acme.example')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/company/team');
    // The company's default, English, was preselected for their mails and is sent.
    expect(sent(1).body).toEqual({
      email: 'new@acme.example',
      full_name: 'New Person',
      roles: ['HANDLER', 'REVIEWER'],
      language: 'en',
    });
    await waitFor(() => expect(screen.getByRole('table', { name: 'Team' })).toBeInTheDocument());
  });

  it("when the company's default language is a staff one, then it is preselected among the eight, and another can be chosen", async () => {
    const state = teamState();
    state.company.languages = { offered: ['en', 'de', 'fr'], default: 'de' };
    open('/company/team/add', staffSession(undefined, state));
    const language = await screen.findByRole('combobox', { name: 'Language of the invitation and later e-mails' });
    expect(language).toHaveValue('de');
    expect(
      within(language)
        .getAllByRole('option')
        .map((option) => [option.textContent, option.lang]),
    ).toEqual([
      ['English', 'en'],
      ['Français', 'fr'],
      ['Deutsch', 'de'],
      ['Español', 'es'],
      ['Italiano', 'it'],
      ['Nederlands', 'nl'],
      ['Polski', 'pl'],
      ['Português', 'pt'],
    ]);
    // The company's default is known from the staff state: nothing is asked of the server for it.
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nina@acme.example' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Nina Nowak' } });
    fireEvent.change(language, { target: { value: 'pl' } });
    fetchMock.mockResolvedValueOnce(json(201, {}));
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to nina@acme.example')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: '/api/account/company/user_profile/',
      method: 'POST',
      body: { email: 'nina@acme.example', full_name: 'Nina Nowak', roles: ['HANDLER'], language: 'pl' },
    });
  });

  it("when the company's default language is not a staff one, then the admin's own mail language is preselected", async () => {
    const state = teamState();
    state.company.languages = { offered: ['ar', 'en'], default: 'ar' };
    fetchMock.mockResolvedValueOnce(
      json(200, {
        language: 'it',
        notifications: { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true },
      }),
    );
    open('/company/team/add', staffSession(undefined, state));
    const language = await screen.findByRole('combobox', { name: 'Language of the invitation and later e-mails' });
    expect(language).toHaveValue('it');
    expect(sent(0)).toEqual({ url: '/api/account/profile/notifications', method: 'GET', body: undefined });
  });

  it('when the server refuses the language, then its message shows by the language field', async () => {
    open('/company/team/add');
    await screen.findByRole('combobox', { name: 'Language of the invitation and later e-mails' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@acme.example' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'New Person' } });
    fetchMock.mockResolvedValueOnce(json(400, { message: 'Bad Request', errors: { language: ['Unknown language'] } }));
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Unknown language')).toBeInTheDocument();
    expect(
      screen.getByRole('combobox', { name: 'Language of the invitation and later e-mails' }),
    ).toHaveAccessibleDescription('Unknown language');
  });
});
