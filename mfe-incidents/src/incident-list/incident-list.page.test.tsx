import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import {
  encryptedReport,
  json,
  listItem,
  staffSession,
  testCompany,
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

/** Issue 23 item 2: finding a case in the list (the list's basics are in incidents.routes.test.tsx). */
const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

function open(path: string, session: StaffSession = staffSession(company.privateKey)) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  return router;
}

const emptyPage = { count: 0, count_capped: false, page: 1, page_size: 20, results: [] };
const lastUrl = () => fetchMock.mock.calls.at(-1)![0];

describe('finding a case by its number', () => {
  it('when "#12" is searched, then the server is asked for number 12 from page 1, and clearing the box lists all again', async () => {
    fetchMock.mockImplementation(async () => json(200, emptyPage));
    const router = open('/company/incidents?page=3&status=NEW');
    const box = await screen.findByLabelText('Report number');
    fireEvent.change(box, { target: { value: ' #12 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=NEW&report_number=12'));
    await waitFor(() => expect(lastUrl()).toBe('/api/incident/?status=NEW&report_number=12'));
    fireEvent.change(screen.getByLabelText('Report number'), { target: { value: '' } });
    fireEvent.submit(screen.getByRole('search', { name: 'Search the cases' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=NEW'));
  });

  it('when the box holds no number, then it says what to type and asks the server nothing new', async () => {
    fetchMock.mockImplementation(async () => json(200, emptyPage));
    const router = open('/company/incidents');
    fireEvent.change(await screen.findByLabelText('Report number'), { target: { value: 'fraud' } });
    const asked = fetchMock.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Enter a report number, such as 12 or #12.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(fetchMock.mock.calls.length).toBe(asked);
  });
});

const HAL = { uuid: '22222222-2222-4222-8222-222222222222', full_name: 'Hal Handler' };
const ADA = { uuid: '11111111-1111-4111-8111-111111111111', full_name: 'Ada Lovelace' };

async function rows(...overrides: Partial<Parameters<typeof listItem>[0]>[]) {
  const { keys } = await encryptedReport(company, {});
  return overrides.map((each, n) =>
    listItem({ uuid: `00000000-0000-4000-8000-00000000000${n + 1}`, display_report_number: n + 1, keys, ...each }),
  );
}

describe('assignees in the list', () => {
  it('when cases come, then each row names its assignees, or says it is unassigned', async () => {
    const results = await rows({ assignees: [HAL, ADA] }, { assignees: [] });
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 2, results }));
    open('/company/incidents');
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Assignees' })).toBeInTheDocument();
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByText('Hal Handler, Ada Lovelace')).toBeInTheDocument();
    expect(within(second!).getByText('Unassigned')).toBeInTheDocument();
  });

  it('when an assignee or "Nobody" is chosen, then the server is asked for that person’s or the unassigned cases', async () => {
    fetchMock.mockImplementation(async () => json(200, emptyPage));
    const router = open('/company/incidents?page=2');
    const filter = await screen.findByLabelText('Assignee');
    await within(filter).findByRole('option', { name: 'Hal Handler' });
    fireEvent.change(filter, { target: { value: HAL.uuid } });
    await waitFor(() => expect(router.state.location.search).toBe(`?assignee=${HAL.uuid}`));
    await waitFor(() => expect(lastUrl()).toBe(`/api/incident/?assignee=${HAL.uuid}`));
    fireEvent.change(screen.getByLabelText('Assignee'), { target: { value: 'nobody' } });
    await waitFor(() => expect(router.state.location.search).toBe('?unassigned=true'));
    await waitFor(() => expect(lastUrl()).toBe('/api/incident/?unassigned=true'));
    expect(screen.getByLabelText('Assignee')).toHaveValue('nobody');
    fireEvent.change(screen.getByLabelText('Assignee'), { target: { value: '' } });
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});

describe('unread marker', () => {
  it('when a case has reporter messages the person has not read, then its row says how many, bold, and the link is described by it', async () => {
    const results = await rows({ unread_messages: 2 }, { unread_messages: 1 }, { unread_messages: 0 }, {});
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 4, results }));
    open('/company/incidents');
    const table = await screen.findByRole('table');
    const [two, one, none, absent] = within(table).getAllByRole('row').slice(1);
    expect(within(two!).getByText('2 unread messages')).toBeInTheDocument();
    expect(within(two!).getByRole('link', { name: '#1' })).toHaveAccessibleDescription('2 unread messages');
    expect(two).toHaveClass('case-table__row--unread');
    expect(within(one!).getByText('1 unread message')).toBeInTheDocument();
    for (const row of [none!, absent!]) {
      expect(within(row).queryByText(/unread/)).not.toBeInTheDocument();
      expect(row).not.toHaveClass('case-table__row--unread');
      expect(within(row).getByRole('link')).not.toHaveAttribute('aria-describedby');
    }
  });

  it('when the list is in French, then the marker is too', async () => {
    const french = await initTestI18n<i18n>('fr');
    const results = await rows({ unread_messages: 3 });
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 1, results }));
    const router = createMemoryRouter(incidentsRoutes, { initialEntries: ['/company/incidents'] });
    renderWithI18n(
      <StaffSessionContext.Provider value={staffSession(company.privateKey)}>
        <RouterProvider router={router} />
      </StaffSessionContext.Provider>,
      french,
    );
    expect(await screen.findByText('3 messages non lus')).toBeInTheDocument();
  });
});

describe('whole-row links', () => {
  it('when a row is clicked outside its number, then that case opens; the number link stays its only tab stop', async () => {
    const results = await rows({}, {});
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 2, results }));
    const router = open('/company/incidents');
    const table = await screen.findByRole('table');
    const second = within(table).getAllByRole('row')[2]!;
    expect(within(second).getAllByRole('link')).toHaveLength(1);
    expect(within(second).getByRole('link', { name: '#2' })).toHaveAttribute(
      'href',
      `/company/incidents/${results[1]!.uuid}`,
    );
    expect(second).not.toHaveAttribute('tabindex');
    fireEvent.click(within(second).getByText('Unassigned'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/company/incidents/${results[1]!.uuid}`));
  });

  it('when a column header or a selected text is clicked, then nothing opens', async () => {
    const results = await rows({});
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 1, results }));
    const router = open('/company/incidents');
    const table = await screen.findByRole('table');
    fireEvent.click(within(table).getAllByRole('row')[0]!);
    const row = within(table).getAllByRole('row')[1]!;
    const selection = jest.spyOn(window, 'getSelection').mockReturnValue({ toString: () => 'Unassigned' } as Selection);
    fireEvent.click(within(row).getByText('Unassigned'));
    selection.mockRestore();
    expect(router.state.location.pathname).toBe('/company/incidents');
  });
});

describe('deadline chips by urgency', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const running = (inDays: number) => ({
    due_at: new Date(Date.now() + inDays * DAY).toISOString(),
    done_at: null,
    state: 'due' as const,
  });

  it('when deadlines are past, within 3 days or later, then they read Overdue / Due in N days, red / amber / neutral', async () => {
    // The server's states say "due" for all three: the urgency is the browser's, from the deadlines themselves.
    const results = await rows({
      clocks: { acknowledgement: running(-0.5), feedback: running(2.5), resolution: running(40) },
    });
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 1, results }));
    open('/company/incidents');
    const chips = within(await screen.findByRole('list', { name: 'Deadlines' })).getAllByRole('listitem');
    expect(chips.map((chip) => chip.className)).toEqual([
      'case-clock case-clock--overdue',
      'case-clock case-clock--soon',
      'case-clock case-clock--later',
    ]);
    expect(chips[0]).toHaveTextContent(/^Acknowledgement Overdue since /);
    expect(chips[1]).toHaveTextContent(/^Feedback Due in 3 days, /);
    expect(chips[2]).toHaveTextContent(/^Resolution Due in 40 days, /);
  });

  it('when a deadline is within a day, then the singular is used, in French too', async () => {
    const french = await initTestI18n<i18n>('fr');
    const results = await rows({
      clocks: { acknowledgement: running(0.5), feedback: running(10), resolution: running(90) },
    });
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 1, results }));
    const router = createMemoryRouter(incidentsRoutes, { initialEntries: ['/company/incidents'] });
    renderWithI18n(
      <StaffSessionContext.Provider value={staffSession(company.privateKey)}>
        <RouterProvider router={router} />
      </StaffSessionContext.Provider>,
      french,
    );
    const chips = within(await screen.findByRole('list', { name: 'Échéances' })).getAllByRole('listitem');
    expect(chips[0]).toHaveTextContent(/Dans 1 jour, le /);
    expect(chips[1]).toHaveTextContent(/Dans 10 jours, le /);
  });
});

describe('next deadline sort', () => {
  it('when the deadline column is sorted, then the server is asked for the soonest first, then the latest', async () => {
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 1, results: await rows({}) }));
    const router = open('/company/incidents?page=2');
    const header = await screen.findByRole('columnheader', { name: /Next deadline/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=next_due_at'));
    await waitFor(() => expect(lastUrl()).toBe('/api/incident/?sort=next_due_at'));
    expect(await screen.findByRole('columnheader', { name: /Next deadline/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Next deadline/ })).getByRole('button'));
    await waitFor(() => expect(lastUrl()).toBe('/api/incident/?sort=-next_due_at'));
  });
});

describe('page size', () => {
  it('when 50 a page is chosen, then the server is asked for 50 from page 1, and the choice shows what it answered', async () => {
    const results = await rows({});
    fetchMock.mockImplementation(async (url) =>
      json(200, { ...emptyPage, count: 120, page_size: url.includes('page_size=50') ? 50 : 20, results }),
    );
    const router = open('/company/incidents?status=NEW&page=3');
    const choice = await screen.findByLabelText('Cases per page');
    expect(choice).toHaveValue('20');
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['10', '20', '50', '100']);
    fireEvent.change(choice, { target: { value: '50' } });
    await waitFor(() => expect(router.state.location.search).toBe('?status=NEW&page_size=50'));
    await waitFor(() => expect(lastUrl()).toBe('/api/incident/?status=NEW&page_size=50'));
    await waitFor(() => expect(screen.getByLabelText('Cases per page')).toHaveValue('50'));
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('when Next page reaches the last page, then the button keeps the focus, says it is unavailable and does nothing', async () => {
    const results = await rows({});
    fetchMock.mockImplementation(async (url) =>
      json(200, { ...emptyPage, count: 40, page: url.includes('page=2') ? 2 : 1, results }),
    );
    const router = open('/company/incidents');
    const next = await screen.findByRole('button', { name: 'Next page' });
    expect(next).not.toHaveAttribute('aria-disabled');
    next.focus();
    fireEvent.click(next);
    await screen.findByText('Page 2 of 2');
    // The same element, still focusable: a disabled button drops the keyboard focus to the page's start in a
    // browser (jsdom keeps it, so the test asks for the attribute that avoids it).
    expect(screen.getByRole('button', { name: 'Next page' })).toBe(next);
    expect(next).toHaveFocus();
    expect(next).not.toBeDisabled();
    expect(next).toHaveAttribute('aria-disabled', 'true');
    const asked = fetchMock.mock.calls.length;
    fireEvent.click(next);
    expect(router.state.location.search).toBe('?page=2');
    expect(fetchMock.mock.calls).toHaveLength(asked);
    expect(screen.getByRole('button', { name: 'Previous page' })).not.toHaveAttribute('aria-disabled');
  });
});
