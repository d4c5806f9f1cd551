import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncidentStaffView } from '@whistle/contracts';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { CASE_UUID, openCasePage } from '../../test/case-page';
import { json, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';

/* Linking a case to another by its report number, and unlinking it. */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const other: IncidentStaffView['linked_cases'][number] = {
  uuid: 'a0000000-0000-4000-8000-000000000009',
  display_report_number: 9,
  status: { name: 'NEW' },
};

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

it('when a case is linked by its number, then it is listed as a link and can be unlinked; wrong numbers are explained', async () => {
  const { requests } = await openCasePage({
    company,
    language: english,
    fetchMock,
    view: (view) => ({ ...view, display_report_number: 3 }),
    answer: ({ method, url }, view) => {
      if (method === 'GET' && url === '/api/incident/?report_number=9')
        return json(200, { count: 1, results: [{ ...view.current, ...other }] });
      if (method === 'GET' && url.startsWith('/api/incident/?')) return json(200, { count: 0, results: [] });
      const linked = method === 'POST' && url === `/api/incident/${CASE_UUID}/link`;
      const unlinked = method === 'DELETE' && url === `/api/incident/${CASE_UUID}/link/${other.uuid}`;
      if (!linked && !unlinked) return undefined;
      view.current = { ...view.current, linked_cases: linked ? [other] : [] };
      return json(200, { linked_cases: view.current.linked_cases });
    },
  });
  const changes = () =>
    requests.filter((request) => request.method !== 'GET' || request.url.startsWith('/api/incident/?'));
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
  expect(changes().map((request) => request.url)).toEqual(['/api/incident/?report_number=40']);

  fireEvent.change(number, { target: { value: '#9' } });
  fireEvent.click(submit);
  const linked = await within(links).findByRole('link', { name: 'Report #9' });
  expect(linked).toHaveAttribute('href', `/company/incidents/${other.uuid}`);
  expect(changes()).toContainEqual({
    method: 'POST',
    url: `/api/incident/${CASE_UUID}/link`,
    body: { incident_uuid: other.uuid },
  });
  expect(number).toHaveValue('');

  fireEvent.click(within(links).getByRole('button', { name: 'Unlink report #9' }));
  await waitFor(() => expect(within(links).queryByRole('link', { name: 'Report #9' })).toBeNull());
  expect(changes().map((request) => `${request.method} ${request.url}`)).toContain(
    `DELETE /api/incident/${CASE_UUID}/link/${other.uuid}`,
  );
});
