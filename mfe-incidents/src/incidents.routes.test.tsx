import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import {
  encryptedReport,
  json,
  listItem,
  staffSession,
  testCompany,
  useNodeWebCrypto,
  type TestCompany,
} from '../test/staff-fixtures';
import { incidentsRoutes } from './incidents.routes';

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

function open(path: string, session: StaffSession, instance = english) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    instance,
  );
  return router;
}

const emptyPage = { count: 0, count_capped: false, page: 1, page_size: 20, results: [] };

describe('incident list', () => {
  it('when the company has no case yet, then the page explains where reports appear and gives the disclosure link', async () => {
    fetchMock.mockImplementation(async () => json(200, emptyPage));
    open('/company/incidents', staffSession(company.privateKey));
    expect(await screen.findByRole('heading', { name: 'No incident reports yet' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Employees’ disclosure link')).toHaveValue(
      `${window.location.origin}/disclose/acme-corporation`,
    );
    // The list, and beside it the person's saved views.
    const listCall = fetchMock.mock.calls.find(([url]) => url === '/api/incident/');
    expect(listCall![1].headers).toMatchObject({ Authorization: 'Bearer staff-token' });
  });

  it('when cases come, then each row shows its number, labels, location, identity decrypted here, status words and deadline badges', async () => {
    const named = await encryptedReport(company, { full_name: 'Jane Doe' });
    const rows = [
      listItem({
        uuid: '00000000-0000-4000-8000-000000000001',
        display_report_number: 7,
        keys: named.keys,
        report_anonymously: false,
        full_name: named.fields[0]!.value,
      }),
      listItem({
        uuid: '00000000-0000-4000-8000-000000000002',
        display_report_number: 8,
        keys: named.keys,
        status: { name: 'INVESTIGATION' },
      }),
    ];
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 2, results: rows }));
    open('/company/incidents', staffSession(company.privateKey));
    const table = await screen.findByRole('table');
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByRole('link', { name: '#7' })).toHaveAttribute(
      'href',
      `/company/incidents/${rows[0]!.uuid}`,
    );
    expect(await within(first!).findByText('Jane Doe')).toBeInTheDocument();
    expect(within(first!).getByText('Fraud')).toBeInTheDocument();
    expect(within(first!).getByText('Bribery')).toBeInTheDocument();
    expect(within(first!).getByText('Head office')).toBeInTheDocument();
    expect(within(first!).getByText('New')).toBeInTheDocument();
    expect(within(first!).getAllByText(/Overdue since/)[0]).toBeInTheDocument();
    expect(within(second!).getByText('Anonymous')).toBeInTheDocument();
    expect(within(second!).getByText('Investigation')).toBeInTheDocument();
    expect(screen.getByText('2 cases')).toBeInTheDocument();
  });

  it('when more cases match than the server counts, then the page says "More than", and Next stays open while pages are full', async () => {
    const named = await encryptedReport(company, {});
    const rows = [1, 2].map((n) =>
      listItem({ uuid: `00000000-0000-4000-8000-00000000000${n}`, display_report_number: n, keys: named.keys }),
    );
    fetchMock.mockImplementation(async () =>
      json(200, { ...emptyPage, count: 10000, count_capped: true, page_size: 2, results: rows }),
    );
    const router = open('/company/incidents?page_size=2', staffSession(company.privateKey));
    expect(await screen.findByText('More than 10,000 cases')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of more than 5000')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(router.state.location.search).toContain('page=2'));
  });

  it('when a filter is chosen, then the page URL keeps it, the server is asked for it from page 1, and an empty result says so', async () => {
    fetchMock.mockImplementation(async () => json(200, emptyPage));
    const router = open('/company/incidents?page=2', staffSession(company.privateKey));
    await screen.findByLabelText('Status');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'CLOSED' } });
    await waitFor(() => expect(router.state.location.search).toBe('?status=CLOSED'));
    fireEvent.click(screen.getByLabelText('Overdue'));
    await waitFor(() => expect(router.state.location.search).toBe('?status=CLOSED&overdue=true'));
    await waitFor(() => expect(fetchMock.mock.calls.at(-1)![0]).toBe('/api/incident/?status=CLOSED&overdue=true'));
    expect(screen.getByText('No case matches these filters.')).toBeInTheDocument();
  });

  it('when the company key is locked or not granted yet, then names read Locked and the page says how to get access', async () => {
    const named = await encryptedReport(company, { full_name: 'Jane Doe' });
    const row = listItem({
      uuid: '00000000-0000-4000-8000-000000000003',
      keys: named.keys,
      report_anonymously: false,
      full_name: named.fields[0]!.value,
    });
    fetchMock.mockImplementation(async () => json(200, { ...emptyPage, count: 1, results: [row] }));
    open('/company/incidents', staffSession(undefined));
    expect(await screen.findByText('Locked')).toBeInTheDocument();
    expect(screen.getByText(/ask an admin to grant you access to reports/)).toBeInTheDocument();
    expect(screen.queryByText('Jane Doe')).not.toBeInTheDocument();
  });

  it('when Export CSV is asked without the company key, then the page says the key is locked instead of exporting names it cannot read', async () => {
    fetchMock.mockImplementation(async () => json(200, emptyPage));
    open('/company/incidents', staffSession(undefined));
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('two-factor authentication');
  });
});

describe('incidents remote routes', () => {
  it('when a case the server does not give is opened, then a translated "case not found" shows', async () => {
    fetchMock.mockImplementation(async () => json(404, { message: 'Incident not found' }));
    open(
      '/company/incidents/5f0c0000-0000-4000-8000-000000000000',
      staffSession(company.privateKey),
      await initTestI18n<i18n>('fr'),
    );
    expect(await screen.findByRole('heading', { name: 'Dossier introuvable' })).toBeInTheDocument();
  });

  it.each(['/company/nowhere', '/company/team/unknown'])(
    'when %s is opened (no such page), then a translated page-not-found shows',
    async (path) => {
      fetchMock.mockImplementation(async () => json(200, emptyPage));
      open(path, staffSession(company.privateKey), await initTestI18n<i18n>('fr'));
      expect(await screen.findByRole('heading', { name: 'Page introuvable' })).toBeInTheDocument();
    },
  );

  it('when the list unmounts before the server answers, then nothing is set on the gone page', async () => {
    let answer: (value: Response) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const router = open('/company/incidents', staffSession(company.privateKey));
    await act(async () => {
      await router.navigate('/company/nowhere');
    });
    answer(json(200, emptyPage));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
