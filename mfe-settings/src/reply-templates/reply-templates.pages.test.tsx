import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { createApiClient, type StaffSession, type StaffState } from '@whistle/api-client';
import type { ReplyTemplate } from '@whistle/contracts';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { fakeKeyring } from '../../test/fake-keyring';
import { chooseRowAction } from '../../test/row-menu';
import { settingsRoutes } from '../settings.routes';

/** Issue 23 item 4: the company's reply templates, managed by an admin in settings. */
const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const admin = {
  uuid: '00000000-0000-4000-8000-000000000001',
  email: 'ada@acme.example',
  full_name: 'Ada Admin',
  roles: ['ADMIN'],
  mfa_auth_factor_id: null,
};
const state = {
  profile: admin,
  company: {
    uuid: '00000000-0000-4000-8000-0000000000c1',
    name: 'Acme',
    user_profiles: [admin],
    categories: [],
    locations: [],
    // The disclosure page offers German and Romanian, German by default.
    languages: { offered: ['de', 'ro'], default: 'de' },
  },
} as unknown as StaffState;
const session = {
  api: createApiClient({ getToken: () => 'staff-token' }),
  staff: async () => state,
  reloadStaff: jest.fn(async () => state),
  subscribe: () => () => undefined,
  replaceToken: jest.fn(async () => undefined),
  keyring: fakeKeyring(),
} as unknown as StaffSession;

const THANKS: ReplyTemplate = {
  uuid: '00000000-0000-4000-8000-0000000000d1',
  name: 'Thanks',
  language: 'en',
  body: 'Thank you for your report.\nWe will come back to you.',
  updated: '2026-11-20T09:30:00.000Z',
};

let templates: ReplyTemplate[];
const calls: { method: string; url: string; body?: unknown }[] = [];
let fetchMock: jest.SpyInstance;
beforeEach(() => {
  templates = [THANKS];
  calls.length = 0;
  fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    if (url === '/api/account/company/reply_template/' && method === 'GET') return answer(200, templates);
    if (url === '/api/account/company/reply_template/' && method === 'POST') {
      const added = { ...THANKS, ...body, uuid: '00000000-0000-4000-8000-0000000000d2' };
      templates = [...templates, added];
      return answer(201, added);
    }
    const one = /reply_template\/([^/]+)$/.exec(url)?.[1];
    if (one && method === 'PUT') return answer(200, { ...THANKS, ...body, uuid: one });
    if (one && method === 'DELETE') {
      templates = templates.filter((template) => template.uuid !== one);
      return answer(204);
    }
    throw new Error(`unexpected ${method} ${url}`);
  });
});
afterEach(() => fetchMock.mockRestore());

async function open(path: string, language = 'en') {
  const router = createMemoryRouter(settingsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    await initTestI18n<i18n>(language),
  );
  return router;
}

describe('reply templates in settings', () => {
  it('when the page opens, then it lists the templates with their text, and warns that they must not hold case details', async () => {
    await open('/company/settings/reply-templates');
    const table = await screen.findByRole('table', { name: 'Reply templates' });
    const row = within(table).getByRole('rowheader', { name: 'Thanks' }).closest('tr')!;
    expect(row).toHaveTextContent('Thank you for your report.');
    expect(within(table).getByRole('columnheader', { name: 'Language' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'English' })).toHaveAttribute('lang', 'en');
    expect(
      screen.getByText('Templates are company settings stored unencrypted: never put a case’s details in them.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reply templates' })).toHaveAttribute(
      'href',
      '/company/settings/reply-templates',
    );
  });

  it('when a template is added, then its name and text are sent, and the list says "Added template"', async () => {
    const router = await open('/company/settings/reply-templates/add');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: '  Received  ' } });
    fireEvent.change(screen.getByLabelText(/^Text/), { target: { value: 'We have received your report.' } });
    // The company's default language first, the others its disclosure page offers, then the staff languages.
    const language = screen.getByLabelText('Language');
    expect(language).toHaveValue('de');
    expect(
      within(language)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['de', 'ro', 'en', 'fr', 'es', 'it', 'nl', 'pl', 'pt']);
    fireEvent.change(language, { target: { value: 'ro' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/company/settings/reply-templates'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Received',
      body: 'We have received your report.',
      language: 'ro',
    });
    expect(await screen.findByText('Added template')).toBeInTheDocument();
    expect(await screen.findByRole('rowheader', { name: 'Received' })).toBeInTheDocument();
  });

  it('when a template is renamed, edited and moved to another language, then the form holds it, and the change is sent', async () => {
    await open(`/company/settings/reply-templates/edit/${THANKS.uuid}`);
    const text = await screen.findByLabelText(/^Text/);
    expect(text).toHaveValue(THANKS.body);
    expect(screen.getByLabelText('Language')).toHaveValue('en');
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Merci' } });
    fireEvent.change(text, { target: { value: 'Merci.' } });
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'fr' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Edited template')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')).toEqual({
      method: 'PUT',
      url: `/api/account/company/reply_template/${THANKS.uuid}`,
      body: { name: 'Merci', body: 'Merci.', language: 'fr' },
    });
  });

  it('when a template is deleted, then "Deleting cannot be undone" is asked first, then it leaves the list', async () => {
    await open('/company/settings/reply-templates');
    await chooseRowAction('Thanks', 'Delete');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Deleting cannot be undone');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted template')).toBeInTheDocument();
    expect(await screen.findByText('No reply template yet.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'DELETE')?.url).toBe(
      `/api/account/company/reply_template/${THANKS.uuid}`,
    );
  });

  it('when the name is taken, then the server’s refusal is shown by the name', async () => {
    fetchMock.mockImplementationOnce(async () => answer(200, templates));
    await open('/company/settings/reply-templates/add');
    fetchMock.mockImplementationOnce(async () =>
      answer(400, { message: 'Bad Request', errors: { name: ['A reply template with this name already exists'] } }),
    );
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Thanks' } });
    fireEvent.change(screen.getByLabelText(/^Text/), { target: { value: 'Other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This name cannot be used')).toBeInTheDocument();
  });

  it('when settings are in German, then so is the page', async () => {
    await open('/company/settings/reply-templates', 'de');
    expect(await screen.findByRole('heading', { name: 'Antwortvorlagen' })).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Aktionen für Thanks' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Bearbeiten', 'Löschen']);
  });
});
