import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { createApiClient, type StaffSession, type StaffState } from '@whistle/api-client';
import type { AuditLogEntry } from '@whistle/contracts';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { settingsRoutes } from '../settings.routes';
import { fakeKeyring } from '../../test/fake-keyring';

const ids = {
  ada: '00000000-0000-4000-8000-000000000001',
  hal: '00000000-0000-4000-8000-000000000003',
  incident: '00000000-0000-4000-8000-0000000000d1',
  label: '00000000-0000-4000-8000-0000000000a1',
};
const member = (uuid: string, full_name: string, roles: string[]) => ({
  uuid,
  full_name,
  roles,
  email: 'x@acme.example',
});
const state = {
  profile: member(ids.ada, 'Ada Admin', ['ADMIN']),
  company: {
    url_identifier: 'acme',
    user_profiles: [member(ids.ada, 'Ada Admin', ['ADMIN']), member(ids.hal, 'Hal Handler', ['HANDLER'])],
  },
} as unknown as StaffState;

const session: StaffSession = {
  api: createApiClient({ getToken: () => 'staff-token' }),
  staff: async () => state,
  reloadStaff: async () => state,
  subscribe: () => () => undefined,
  replaceToken: async () => undefined,
  keyring: fakeKeyring(),
};

const entries: AuditLogEntry[] = [
  {
    uuid: '00000000-0000-4000-8000-0000000000e2',
    action: 'incident-opened',
    success: true,
    table_identifier: 'incident',
    object_uuid: ids.incident,
    incident_uuid: ids.incident,
    actor: { type: 'STAFF', uuid: ids.ada, name: 'Ada Admin' },
    occurred_at: '2026-11-24T10:00:00.000Z',
  },
  {
    uuid: '00000000-0000-4000-8000-0000000000e1',
    action: 'login-failed',
    success: false,
    table_identifier: 'user_profile',
    object_uuid: ids.hal,
    incident_uuid: null,
    actor: { type: 'STAFF', uuid: ids.hal, name: 'Hal Handler' },
    occurred_at: '2026-11-24T09:00:00.000Z',
  },
  {
    uuid: '00000000-0000-4000-8000-0000000000e0',
    action: 'category-created',
    success: true,
    table_identifier: 'category',
    object_uuid: ids.label,
    incident_uuid: null,
    actor: { type: 'SYSTEM', uuid: null, name: 'Whistle' },
    occurred_at: '2026-11-24T08:00:00.000Z',
  },
];

/** The case of the first entry as the case list answers it. */
const caseRow = { uuid: ids.incident, display_report_number: 7 };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const page = (overrides: Record<string, unknown> = {}) => ({
  count: entries.length,
  page: 1,
  page_size: 50,
  results: entries,
  ...overrides,
});

let english: i18n;
let fetchMock: jest.SpyInstance<Promise<Response>, Parameters<typeof fetch>>;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => fetchMock.mockRestore());

function open(path: string) {
  const router = createMemoryRouter(settingsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  return router;
}

/** Types a YYYY-MM-DD day into the date field named `label` of `form`: day, month by name, year. */
function typeDay(form: HTMLElement, label: string, day: string) {
  const [year, month, date] = day.split('-') as [string, string, string];
  const field = within(within(form).getByRole('group', { name: label }));
  fireEvent.change(field.getByRole('textbox', { name: 'Day' }), { target: { value: String(Number(date)) } });
  fireEvent.change(field.getByRole('combobox', { name: 'Month' }), { target: { value: String(Number(month)) } });
  fireEvent.change(field.getByRole('textbox', { name: 'Year' }), { target: { value: year } });
}

/** Path and query of every call, in order. */
const called = () => fetchMock.mock.calls.map(([url]) => String(url));
/** Those of the audit log (not the case list's, which names the cases of a page by number). */
const asked = () => called().filter((url) => !url.startsWith('/api/incident/'));

describe('the company audit log', () => {
  it('when an admin opens it, then a labelled table shows each entry in plain words, refusals marked, ids short, its case by number', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).startsWith('/api/incident/')
        ? json(200, { count: 1, count_capped: false, page: 1, page_size: 1, results: [caseRow] })
        : json(200, page()),
    );
    open('/company/settings/audit-log');
    expect(await screen.findByRole('heading', { name: 'Audit log', level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Audit log entries, newest first' });
    // The table scrolls sideways in its own labelled, focusable region; the page takes the window's width.
    const region = screen.getByRole('region', { name: 'Audit log entries, newest first' });
    expect(region).toContainElement(table);
    expect(region).toHaveAttribute('tabindex', '0');
    expect(document.querySelector('main')).toHaveClass('wh-main--wide');
    const link = await within(table).findByRole('link', { name: 'Open the case #7' });
    expect(link).toHaveAttribute('href', `/company/incidents/${ids.incident}`);
    expect(link).toHaveTextContent(/^Open the case #7$/);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));
    // When, in words with the seconds, in the viewer's time zone: never a numeric-only date.
    for (const cells of rows) expect(cells[0]).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d:\d\d$/);
    // The case is named once, by its number; other objects by their id, shown short (the whole id read out).
    expect(rows.map((cells) => cells.slice(1))).toEqual([
      ['Case opened', 'Done', 'Ada Admin', 'Case', 'Open the case #7'],
      ['Sign-in refused', 'Refused', 'Hal Handler', `Member 00000000…${ids.hal}`, ''],
      ['Reporting label added', 'Done', 'Whistle', `Reporting label 00000000…${ids.label}`, ''],
    ]);
    expect(within(table).getAllByRole('link')).toHaveLength(1);
    expect(screen.getByText('3 entries')).toBeInTheDocument();
    // The numbers of the page's cases, asked of the case list (scoped to what the admin may see).
    expect(called()).toEqual([
      '/api/account/company/audit_log/',
      `/api/incident/?incident=${ids.incident}&page_size=1`,
    ]);
    expect(fetchMock.mock.calls[0]![1]!.headers).toMatchObject({ Authorization: 'Bearer staff-token' });
    expect(screen.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
  });

  it('when the case list cannot name a case (deleted since, or the request failed), then its id and link stay', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).startsWith('/api/incident/') ? json(500, { message: 'Internal Server Error' }) : json(200, page()),
    );
    open('/company/settings/audit-log');
    const table = await screen.findByRole('table', { name: 'Audit log entries, newest first' });
    await waitFor(() => expect(called()).toHaveLength(2));
    expect(within(table).getByRole('link', { name: `Open the case ${ids.incident}` })).toHaveAttribute(
      'href',
      `/company/incidents/${ids.incident}`,
    );
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(`Case 00000000…${ids.incident}`);
  });

  it('when filters are applied, then they go to the page URL and to the request, back to page 1', async () => {
    fetchMock.mockImplementation(async () => json(200, page()));
    const router = open('/company/settings/audit-log?action=logout&page=2');
    await screen.findByRole('table');
    expect(asked()).toEqual(['/api/account/company/audit_log/?action=logout&page=2']);
    const filters = screen.getByRole('form', { name: 'Filter the audit log' });
    expect(within(filters).getByLabelText('Action')).toHaveValue('logout');

    fireEvent.change(within(filters).getByLabelText('Object type'), { target: { value: 'incident' } });
    fireEvent.change(within(filters).getByLabelText('Action'), { target: { value: 'incident-opened' } });
    fireEvent.change(within(filters).getByLabelText('Member'), { target: { value: ids.hal } });
    typeDay(filters, 'From', '2026-11-01');
    typeDay(filters, 'To', '2026-11-30');
    expect(asked()).toHaveLength(1);
    fireEvent.click(within(filters).getByRole('button', { name: 'Apply filters' }));

    const expected = `table_identifiers=incident&action=incident-opened&user=${ids.hal}&from=2026-11-01&to=2026-11-30`;
    await waitFor(() => expect(asked()).toHaveLength(2));
    expect(asked()[1]).toBe(`/api/account/company/audit_log/?${expected}`);
    expect(router.state.location.search).toBe(`?${expected}`);
    expect(screen.getByRole('form', { name: 'Filter the audit log' })).toHaveFormValues({ user: ids.hal });
  });

  it('when a day that does not exist is typed, then the field says so and nothing is asked', async () => {
    fetchMock.mockImplementation(async () => json(200, page()));
    const router = open('/company/settings/audit-log');
    await screen.findByRole('table');
    const filters = screen.getByRole('form', { name: 'Filter the audit log' });
    typeDay(filters, 'From', '2026-02-30');
    fireEvent.click(within(filters).getByRole('button', { name: 'Apply filters' }));
    expect(within(filters).getByRole('group', { name: 'From' })).toHaveTextContent(
      'Enter a real date, for example 1 May 2025',
    );
    expect(asked()).toHaveLength(1);
    expect(router.state.location.search).toBe('');
  });

  it('when the server refuses a filter, then its message shows by that field', async () => {
    fetchMock.mockResolvedValue(
      json(400, { message: 'Bad Request', errors: { to: ['The period ends before it starts'] } }),
    );
    open('/company/settings/audit-log?from=2026-12-01&to=2026-11-01');
    expect(await screen.findByText('The period ends before it starts')).toBeInTheDocument();
    const dayOf = (label: string) =>
      within(screen.getByRole('group', { name: label })).getByRole('textbox', { name: 'Day' });
    expect(dayOf('To')).toHaveAttribute('aria-invalid', 'true');
    expect(dayOf('To')).toHaveAccessibleDescription('The period ends before it starts');
    expect(dayOf('From')).not.toHaveAttribute('aria-invalid');
    expect(dayOf('From')).toHaveValue('1');
    expect(screen.getByRole('alert')).toHaveTextContent('These filters are not valid.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('when there are more pages, then the pager moves through them in the URL', async () => {
    fetchMock.mockImplementation(async (url) =>
      json(200, page({ count: 120, page: String(url).includes('page=2') ? 2 : 1 })),
    );
    const router = open('/company/settings/audit-log?action=logout');
    const pager = await screen.findByRole('navigation', { name: 'Pages of the audit log' });
    expect(pager).toHaveTextContent('Page 1 of 3');
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    // The pager of the next page's answer.
    await waitFor(() =>
      expect(screen.getByRole('navigation', { name: 'Pages of the audit log' })).toHaveTextContent('Page 2 of 3'),
    );
    expect(router.state.location.search).toBe('?action=logout&page=2');
    expect(asked().at(-1)).toBe('/api/account/company/audit_log/?action=logout&page=2');
  });

  it('when "Export CSV" is pressed, then the server’s CSV of the filtered log is fetched with the token and downloaded', async () => {
    const csv = 'Date (UTC),Action\n2026-11-24T10:00:00.000Z,logout\n';
    fetchMock.mockImplementation(async (url) =>
      String(url).includes('/export')
        ? new Response(csv, { headers: { 'content-type': 'text/csv' } })
        : json(200, page()),
    );
    const saved: Blob[] = [];
    const downloads: string[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:audit-log';
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(`${this.download} ${this.href}`);
    });
    try {
      open('/company/settings/audit-log?action=logout&page=2');
      await screen.findByRole('table');
      fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('The audit log was exported.')).toBeInTheDocument();
      const [url, init] = fetchMock.mock.calls.at(-1)!;
      expect(url).toBe('/api/account/company/audit_log/export?action=logout');
      expect(init!.headers).toMatchObject({ Authorization: 'Bearer staff-token', Accept: 'text/csv' });
      expect(await saved[0]!.text()).toBe(csv);
      expect(downloads).toEqual([expect.stringMatching(/^audit-log-\d{4}-\d{2}-\d{2}\.csv blob:audit-log$/)]);
    } finally {
      click.mockRestore();
    }
  });

  it('when "Verify integrity" finds the chain intact, then it says how many entries were checked', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).endsWith('/verify')
        ? json(200, { intact: true, checked: 3, first_broken: null, truncated: false })
        : json(200, page()),
    );
    open('/company/settings/audit-log');
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Verify integrity' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The audit log is intact: 3 entries checked, none altered or removed.',
    );
    expect(asked().at(-1)).toBe('/api/account/company/audit_log/verify');
  });

  it('when "Verify integrity" finds a broken link, then it names the first broken entry', async () => {
    const broken = '00000000-0000-4000-8000-0000000000e1';
    fetchMock.mockImplementation(async (url) =>
      String(url).endsWith('/verify')
        ? json(200, { intact: false, checked: 3, first_broken: { uuid: broken, sequence: 2 }, truncated: true })
        : json(200, page()),
    );
    open('/company/settings/audit-log');
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Verify integrity' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      `The audit log was altered: entry no. 2 (${broken}) is the first whose content or link does not match.`,
    );
    expect(alert).toHaveTextContent('Entries were removed from the end of the audit log.');
  });
});
