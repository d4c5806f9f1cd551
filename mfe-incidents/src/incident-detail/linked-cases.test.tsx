import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { IncidentStaffView } from '@whistle/contracts';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import {
  encryptedReport,
  json,
  staffSession,
  staffView,
  testCompany,
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

/* Linking a case to another by its report number, and unlinking it. */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';
const other = { uuid: 'a0000000-0000-4000-8000-000000000009', display_report_number: 9, status: { name: 'NEW' } };

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

async function openCase() {
  const report = await encryptedReport(company, { description: 'Invoices paid twice' });
  let view: IncidentStaffView = staffView({ uuid, display_report_number: 3, keys: report.keys, fields: report.fields });
  const requests: string[] = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const method = init.method ?? 'GET';
    if (method !== 'GET' || url.startsWith('/api/incident/?'))
      requests.push(`${method} ${url} ${init.body ?? ''}`.trim());
    if (method === 'GET' && url === '/api/incident/?report_number=9')
      return json(200, { count: 1, results: [{ ...view, ...other }] });
    if (method === 'GET' && url.startsWith('/api/incident/?')) return json(200, { count: 0, results: [] });
    if (method === 'POST' && url === `/api/incident/${uuid}/link`) {
      view = { ...view, linked_cases: [other as IncidentStaffView['linked_cases'][number]] };
      return json(200, { linked_cases: view.linked_cases });
    }
    if (method === 'DELETE' && url === `/api/incident/${uuid}/link/${other.uuid}`) {
      view = { ...view, linked_cases: [] };
      return json(200, { linked_cases: [] });
    }
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, view);
    if (url.endsWith('/message') || url.endsWith('/note') || url.endsWith('/file')) return json(200, []);
    return json(404, { message: 'Not Found' });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(company.privateKey)}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  await screen.findByText('Invoices paid twice');
  return requests;
}

it('when a case is linked by its number, then it is listed as a link and can be unlinked; wrong numbers are explained', async () => {
  const requests = await openCase();
  const links = screen.getByRole('region', { name: 'Linked cases' });
  expect(within(links).getByText('No linked case.')).toBeInTheDocument();
  const number = within(links).getByRole('textbox', { name: 'Report number of the case to link' });
  const submit = within(links).getByRole('button', { name: 'Link' });

  for (const [typed, message] of [
    ['twelve', 'Enter a report number, such as 12'],
    ['3', 'A case cannot be linked to itself'],
    ['#40', 'No case with this number that you may see'],
  ]) {
    fireEvent.change(number, { target: { value: typed } });
    fireEvent.click(submit);
    expect(await within(links).findByText(message!)).toBeInTheDocument();
  }
  expect(requests).toEqual(['GET /api/incident/?report_number=40']);

  fireEvent.change(number, { target: { value: '#9' } });
  fireEvent.click(submit);
  const linked = await within(links).findByRole('link', { name: 'Report #9' });
  expect(linked).toHaveAttribute('href', `/company/incidents/${other.uuid}`);
  expect(requests).toContain(`POST /api/incident/${uuid}/link {"incident_uuid":"${other.uuid}"}`);
  expect(number).toHaveValue('');

  fireEvent.click(within(links).getByRole('button', { name: 'Unlink report #9' }));
  await waitFor(() => expect(within(links).queryByRole('link', { name: 'Report #9' })).toBeNull());
  expect(requests).toContain(`DELETE /api/incident/${uuid}/link/${other.uuid}`);
});
