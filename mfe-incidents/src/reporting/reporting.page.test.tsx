import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { MAX_REPORTING_YEARS, reportingResponseSchema, type ReportingResponse } from '@whistle/contracts';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { json, staffSession } from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';
import { MAX_YEARS, presetPeriod } from './period';

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let english: i18n;

const FRAUD = '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a10';
const BRIBERY = '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a11';
const OFFICE = '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a20';

/** An answer of the server for the first half of 2025 (checked against the contract below). */
const answer: ReportingResponse = {
  period: { from: '2025-01-01', to: '2025-03-31' },
  total: 9,
  by_month: [
    { month: '2025-01', channels: { online: 3, telephone: 1, internal: 0 } },
    { month: '2025-02', channels: { online: 0, telephone: 0, internal: 0 } },
    { month: '2025-03', channels: { online: 2, telephone: 0, internal: 3 } },
  ],
  by_category: [
    { uuid: FRAUD, name: 'Fraud', count: 6 },
    { uuid: BRIBERY, name: 'Bribery, "cash"', count: 3 },
  ],
  by_location: [{ uuid: OFFICE, name: 'Head office', count: 9 }],
  by_status: [
    { status: 'NEW', count: 2 },
    { status: 'ACKNOWLEDGED', count: 3 },
    { status: 'ASSESSMENT', count: 0 },
    { status: 'INVESTIGATION', count: 1 },
    { status: 'CLOSED', count: 3 },
    { status: 'REOPENED', count: 0 },
  ],
  by_outcome: [
    { outcome: 'substantiated', count: 2 },
    { outcome: 'unsubstantiated', count: 0 },
    { outcome: 'inconclusive', count: 0 },
    { outcome: 'referred', count: 0 },
    { outcome: 'out_of_scope', count: 0 },
    { outcome: 'spam', count: 1 },
    { outcome: 'withdrawn', count: 0 },
  ],
  times: {
    to_acknowledge: { median_days: 2.5, cases: 7 },
    to_first_feedback: { median_days: 41, cases: 4 },
    to_close: { median_days: null, cases: 0 },
  },
  directive: {
    acknowledged_within_7_days: { met: 6, counted: 8, share: 0.75 },
    feedback_within_3_months: { met: 0, counted: 0, share: null },
  },
  now: { open: 12, overdue: 4, at: '2025-11-24T10:00:00.000Z' },
};

beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
  // jsdom has no canvas (its getContext only logs "not implemented"): the page then draws no chart, as
  // in a browser without canvas, and the tables below are what is read.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
});
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

function open(path: string, instance = english) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(undefined)}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    instance,
  );
  return router;
}

/** The rows of a figure's table (found by its caption), each as its cells' texts. */
function tableRows(caption: string): string[][] {
  const table = screen.getByRole('table', { name: caption });
  return within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}

const period = '?from=2025-01-01&to=2025-03-31';

/** Types a YYYY-MM-DD day into the date field named `label`: day, month by name, year. */
function typeDay(label: string, day: string) {
  const [year, month, date] = day.split('-') as [string, string, string];
  const field = within(screen.getByRole('group', { name: label }));
  fireEvent.change(field.getByRole('textbox', { name: 'Day' }), { target: { value: String(Number(date)) } });
  fireEvent.change(field.getByRole('combobox', { name: 'Month' }), { target: { value: String(Number(month)) } });
  fireEvent.change(field.getByRole('textbox', { name: 'Year' }), { target: { value: year } });
  // Leaving the field, as a person does, to the next control.
  fireEvent.blur(field.getByRole('textbox', { name: 'Year' }), {
    relatedTarget: screen.getByRole('button', { name: 'Show' }),
  });
}

/** The day the date field named `label` shows, as YYYY-MM-DD. */
function dayIn(label: string): string {
  const field = within(screen.getByRole('group', { name: label }));
  const day = (field.getByRole('textbox', { name: 'Day' }) as HTMLInputElement).value.padStart(2, '0');
  const month = (field.getByRole('combobox', { name: 'Month' }) as HTMLSelectElement).value.padStart(2, '0');
  return `${(field.getByRole('textbox', { name: 'Year' }) as HTMLInputElement).value}-${month}-${day}`;
}

/** A Blob's text (jsdom's Blob has no `text()`). */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });

describe('reporting page', () => {
  it('when the server answers, then each chart’s table shows its numbers and the tiles the key figures', async () => {
    expect(reportingResponseSchema.parse(answer)).toEqual(answer);
    fetchMock.mockImplementation(async () => json(200, answer));
    open(`/company/reporting${period}`);
    expect(await screen.findByText('1 January – 31 March 2025 (UTC days): 9 cases received.')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/incident/reporting?from=2025-01-01&to=2025-03-31');

    expect(tableRows('Cases per month, by channel')).toEqual([
      ['Month', 'Online', 'Telephone', 'Internal', 'Total'],
      ['Jan 2025', '3', '1', '0', '4'],
      ['Feb 2025', '0', '0', '0', '0'],
      ['Mar 2025', '2', '0', '3', '5'],
    ]);
    expect(tableRows('Cases by category')).toEqual([
      ['Category', 'Cases'],
      ['Fraud', '6'],
      ['Bribery, "cash"', '3'],
    ]);
    expect(tableRows('Cases by location')).toEqual([
      ['Location', 'Cases'],
      ['Head office', '9'],
    ]);
    expect(tableRows('Cases by status today')).toContainEqual(['Acknowledged', '3']);
    expect(tableRows('Closed cases by outcome')).toEqual(
      expect.arrayContaining([
        ['Substantiated', '2'],
        ['Spam', '1'],
        ['Withdrawn', '0'],
      ]),
    );
    expect(screen.getByRole('img', { name: /Chart: Cases per month, by channel/ })).toBeInTheDocument();

    const tile = (name: string) => screen.getByText(name).closest('div')!.querySelector('dd')!.textContent;
    expect(tile('Median time to acknowledge')).toBe('2.5 daysover 7 cases');
    expect(tile('Median time to first feedback')).toBe('41 daysover 4 cases');
    expect(tile('Median time to close')).toBe('–no case of the period yet');
    expect(tile('Acknowledged within 7 days')).toBe('75%6 of 8 cases');
    expect(tile('Feedback within 3 months')).toBe('–no deadline of the period has passed or stopped yet');
    expect(tile('Open cases')).toBe('12today, whatever the period');
    expect(tile('Overdue cases')).toBe('4today, whatever the period');
  });

  it('when a figure’s CSV is asked, then the file holds its table, quoted by the CSV library', async () => {
    const saved: { name: string; blob: Blob }[] = [];
    let blob: Blob | undefined;
    URL.createObjectURL = jest.fn((object: Blob) => {
      blob = object;
      return 'blob:reporting';
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, blob: blob! });
    });
    fetchMock.mockImplementation(async () => json(200, answer));
    open(`/company/reporting${period}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV: Cases per month, by channel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV: Cases by category' }));
    // Each figure's button says, visibly, what it downloads: no two alike.
    const downloads = screen.getAllByRole('button', { name: /^Download CSV/ }).map((button) => button.textContent);
    expect(downloads).toHaveLength(5);
    expect(new Set(downloads).size).toBe(5);
    click.mockRestore();
    expect(saved.map((file) => file.name)).toEqual([
      'whistle-reporting-cases-per-month-2025-01-01-2025-03-31.csv',
      'whistle-reporting-cases-by-category-2025-01-01-2025-03-31.csv',
    ]);
    expect(await textOf(saved[0]!.blob)).toBe(
      'Month,Online,Telephone,Internal,Total\r\n2025-01,3,1,0,4\r\n2025-02,0,0,0,0\r\n2025-03,2,0,3,5',
    );
    expect(await textOf(saved[1]!.blob)).toBe('Category,Cases\r\nFraud,6\r\n"Bribery, ""cash""",3');
  });

  it('when no period is in the URL, then the last 12 months are asked; a preset or dates put the period in the URL', async () => {
    fetchMock.mockImplementation(async () => json(200, answer));
    const router = open('/company/reporting');
    const lastYear = presetPeriod('last12Months', new Date());
    await waitFor(() =>
      expect(fetchMock.mock.calls[0]![0]).toBe(`/api/incident/reporting?from=${lastYear.from}&to=${lastYear.to}`),
    );
    expect(screen.getByLabelText('Period')).toHaveValue('last12Months');

    fireEvent.change(screen.getByLabelText('Period'), { target: { value: 'lastYear' } });
    const previous = presetPeriod('lastYear', new Date());
    await waitFor(() => expect(router.state.location.search).toBe(`?from=${previous.from}&to=${previous.to}`));
    await waitFor(() => expect(dayIn('From')).toBe(previous.from));

    typeDay('From', '2024-02-01');
    typeDay('To', '2024-02-29');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(router.state.location.search).toBe('?from=2024-02-01&to=2024-02-29'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.at(-1)![0]).toBe('/api/incident/reporting?from=2024-02-01&to=2024-02-29'),
    );
    expect(screen.getByLabelText('Period')).toHaveValue('custom');
  });

  it('when the dates are reversed or too far apart, then the page says so and asks nothing', async () => {
    expect(MAX_YEARS).toBe(MAX_REPORTING_YEARS);
    fetchMock.mockImplementation(async () => json(200, answer));
    const router = open(`/company/reporting${period}`);
    await screen.findByText(/9 cases received/);
    typeDay('From', '2025-04-01');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The end date comes before the start date.');
    expect(router.state.location.search).toBe(period);

    const calls = fetchMock.mock.calls.length;
    await act(() => router.navigate('/company/reporting?from=2019-01-01&to=2025-01-01'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('A period is at most 5 years long.'));
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('when a day that does not exist is typed, then the page says so in words and asks nothing', async () => {
    fetchMock.mockImplementation(async () => json(200, answer));
    const router = open(`/company/reporting${period}`);
    await screen.findByText(/9 cases received/);
    const calls = fetchMock.mock.calls.length;
    typeDay('To', '2025-02-30');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Enter both dates in full: a real day, a month and a year.',
    );
    expect(within(screen.getByRole('group', { name: 'To' })).getByText('Enter a real date, for example 1 May 2025'));
    expect(router.state.location.search).toBe(period);
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('when the server refuses a non-admin (403), then the page says reporting is for admins, in French too', async () => {
    fetchMock.mockImplementation(async () => json(403, { message: 'Reporting is for admins' }));
    open(`/company/reporting${period}`, await initTestI18n<i18n>('fr'));
    expect(
      await screen.findByRole('heading', { name: 'Les rapports sont réservés aux administrateurs' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
