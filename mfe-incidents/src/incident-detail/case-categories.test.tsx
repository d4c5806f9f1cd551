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

/* An admin changes what a case is about; others see the categories but no control. */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';
const FRAUD = 'c0000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

async function openCase(permissions: Partial<IncidentStaffView['permissions']> = {}) {
  const report = await encryptedReport(company, { description: 'Invoices paid twice' });
  let view = staffView({ uuid, keys: report.keys, fields: report.fields });
  view = { ...view, permissions: { ...view.permissions, ...permissions } };
  const updates: unknown[] = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const method = init.method ?? 'GET';
    if (method === 'PUT' && url === `/api/incident/${uuid}/`) {
      const body = JSON.parse(init.body as string) as { category_uuids: string[] };
      updates.push(body);
      view = {
        ...view,
        management_categories: view.management_categories.filter((category) =>
          body.category_uuids.includes(category.uuid),
        ),
      };
      return json(200, view);
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
  return updates;
}

describe("a case's categories", () => {
  it('when an admin changes them, then the company’s categories are offered with the case’s ticked, one at least is required, and the choice is saved', async () => {
    const updates = await openCase();
    fireEvent.click(screen.getByRole('button', { name: 'Change categories' }));
    const picker = screen.getByRole('group', { name: 'What the case is about' });
    const fraud = within(picker).getByRole('checkbox', { name: 'Fraud' });
    const bribery = within(picker).getByRole('checkbox', { name: 'Bribery' });
    expect([fraud, bribery].map((box) => (box as HTMLInputElement).checked)).toEqual([true, true]);

    fireEvent.click(fraud);
    fireEvent.click(bribery);
    fireEvent.click(screen.getByRole('button', { name: 'Save categories' }));
    expect(await within(picker).findByText('Choose at least one category')).toBeInTheDocument();
    expect(updates).toEqual([]);

    fireEvent.click(fraud);
    fireEvent.click(screen.getByRole('button', { name: 'Save categories' }));
    await waitFor(() => expect(updates).toEqual([{ category_uuids: [FRAUD] }]));
    expect(await screen.findByText('Incident details updated')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'What the case is about' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Change categories' })).toBeInTheDocument();
  });

  it('when the viewer may not change them, then there is no control', async () => {
    await openCase({ change_categories: false });
    expect(screen.queryByRole('button', { name: 'Change categories' })).toBeNull();
  });
});
