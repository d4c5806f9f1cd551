import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncidentStaffView } from '@whistle/contracts';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { CASE_UUID, openCasePage } from '../../test/case-page';
import { json, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';

/* An admin changes what a case is about; others see the categories but no control. */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const FRAUD = 'c0000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

const openCase = (permissions: Partial<IncidentStaffView['permissions']> = {}) =>
  openCasePage({
    company,
    language: english,
    fetchMock,
    view: (view) => ({ ...view, permissions: { ...view.permissions, ...permissions } }),
    answer: ({ method, url, body }, view) => {
      if (method !== 'PUT' || url !== `/api/incident/${CASE_UUID}/`) return undefined;
      const chosen = (body as { category_uuids: string[] }).category_uuids;
      view.current = {
        ...view.current,
        management_categories: view.current.management_categories.filter((category) => chosen.includes(category.uuid)),
      };
      return json(200, view.current);
    },
  });

const updates = () => fetchMock.mock.calls.filter(([, init]) => init.method === 'PUT').map(([, init]) => init.body);

describe("a case's categories", () => {
  it('when an admin changes them, then the company’s categories are offered with the case’s ticked, one at least is required, and the choice is saved', async () => {
    await openCase();
    fireEvent.click(screen.getByRole('button', { name: 'Change categories' }));
    const picker = screen.getByRole('group', { name: 'What the case is about' });
    const fraud = within(picker).getByRole('checkbox', { name: 'Fraud' });
    const bribery = within(picker).getByRole('checkbox', { name: 'Bribery' });
    expect([fraud, bribery].map((box) => (box as HTMLInputElement).checked)).toEqual([true, true]);

    fireEvent.click(fraud);
    fireEvent.click(bribery);
    fireEvent.click(screen.getByRole('button', { name: 'Save categories' }));
    expect(await within(picker).findByText('Choose at least one category')).toBeInTheDocument();
    expect(updates()).toEqual([]);

    fireEvent.click(fraud);
    fireEvent.click(screen.getByRole('button', { name: 'Save categories' }));
    await waitFor(() => expect(updates()).toEqual([JSON.stringify({ category_uuids: [FRAUD] })]));
    expect(await screen.findByText('Incident details updated')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'What the case is about' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Change categories' })).toBeInTheDocument();
  });

  it('when the viewer may not change them, then there is no control', async () => {
    await openCase({ change_categories: false });
    expect(screen.queryByRole('button', { name: 'Change categories' })).toBeNull();
  });
});
