import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
import { createPersonKeys, importPersonKeys, openIncidentWithGrant, personFingerprint } from '@whistle/crypto';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import {
  encryptedReport,
  json,
  listItem,
  staffSession,
  staffState,
  testCompany,
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import type { ExportMessage, ExportRequest } from '../case/export-job';
import { incidentsRoutes } from '../incidents.routes';

/** Issue 23 item 2: the cases selected in the list, assigned or exported together. */
const worker = { requests: [] as ExportRequest[], answer: (_message: ExportMessage) => undefined as void };
jest.mock('../case/export-worker', () => ({
  startExportWorker: () => {
    const fake = {
      onmessage: null as ((event: { data: ExportMessage }) => void) | null,
      onerror: null,
      postMessage: (request: ExportRequest) => worker.requests.push(request),
      terminate: () => undefined,
    };
    worker.answer = (message) => fake.onmessage?.({ data: message });
    return fake;
  },
}));

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const ADA = { uuid: '11111111-1111-4111-8111-111111111111', full_name: 'Ada Lovelace' };
const HAL = '22222222-2222-4222-8222-222222222222';
let hal: Awaited<ReturnType<typeof importPersonKeys>>;
let halFingerprint: string;

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
  const { publicKeys, secret } = await createPersonKeys();
  hal = await importPersonKeys(secret, publicKeys);
  halFingerprint = await personFingerprint(publicKeys);
  URL.createObjectURL = jest.fn(() => 'blob:export');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
beforeEach(() => {
  fetchMock.mockReset();
  worker.requests = [];
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

const teamAnswer = () => ({
  people: [
    {
      user_id: ADA.uuid,
      full_name: ADA.full_name,
      roles: ['ADMIN'],
      public_key: null,
      signing_public_key: null,
      fingerprint: null,
      company_key: 'granted',
      access_request: null,
    },
    {
      user_id: HAL,
      full_name: 'Hal Handler',
      roles: ['HANDLER'],
      public_key: hal.publicKeys.public_key,
      signing_public_key: hal.publicKeys.signing_public_key,
      fingerprint: halFingerprint,
      company_key: 'missing',
      access_request: null,
    },
  ],
});

async function threeCases() {
  const reports = await Promise.all([1, 2, 3].map(() => encryptedReport(company, {})));
  return reports.map(({ keys }, n) =>
    listItem({
      uuid: `00000000-0000-4000-8000-00000000000${n + 1}`,
      display_report_number: n + 1,
      keys,
      assignees: n === 0 ? [ADA] : [],
    }),
  );
}

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

async function openList(
  answer: (request: Seen) => Response | undefined = () => undefined,
  session: StaffSession = staffSession(company.privateKey),
) {
  const results = await threeCases();
  const seen: Seen[] = [];
  fetchMock.mockImplementation(async (url, init) => {
    const request = { method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(init.body as string) : null };
    seen.push(request);
    const answered = answer(request);
    if (answered) return answered;
    if (url === '/api/account/company/keys/people') return json(200, teamAnswer());
    if (url.startsWith('/api/incident/?'))
      return json(200, { count: 3, count_capped: false, page: 1, page_size: 20, results });
    if (url === '/api/incident/saved-view/') return json(200, []);
    return json(404, {});
  });
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: ['/company/incidents?sort=created'] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  await screen.findByRole('table');
  return { results, seen, router };
}

const region = () => within(screen.getByRole('region', { name: 'Selected cases' }));

describe('selecting cases', () => {
  it('when cases are ticked one by one or by page, then each checkbox names its case and the count follows', async () => {
    const { router } = await openList();
    const all = screen.getByRole('checkbox', { name: 'Select all cases on this page' });
    const second = screen.getByRole('checkbox', { name: 'Select case #2' });
    fireEvent.click(second);
    expect(region().getByText('1 case selected')).toBeInTheDocument();
    expect(all).toHaveProperty('indeterminate', true);
    expect(all).not.toBeChecked();
    // A tick is not a click on the row: the case does not open.
    expect(router.state.location.pathname).toBe('/company/incidents');
    fireEvent.click(all);
    expect(region().getByText('3 cases selected')).toBeInTheDocument();
    expect(all).toBeChecked();
    expect(all).toHaveProperty('indeterminate', false);
    fireEvent.click(region().getByRole('button', { name: 'Clear the selection' }));
    expect(screen.getByRole('checkbox', { name: 'Select case #1' })).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Export selected' })).toBeNull();
  });

  it('when the page changes, then the selection starts empty', async () => {
    const { router } = await openList();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    await act(() => router.navigate('/company/incidents?sort=created&status=NEW'));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Select case #1' })).not.toBeChecked());
    expect(screen.queryByText(/selected$/)).toBeNull();
  });
});

describe('bulk assignment', () => {
  it('when an admin assigns a handler to two cases, then each case keeps its assignees, gets the handler and a grant only their key opens', async () => {
    const { results, seen } = await openList(({ method }) => (method === 'PUT' ? json(200, {}) : undefined));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #3' }));
    fireEvent.click(region().getByRole('button', { name: 'Assign' }));
    const picker = within(await screen.findByRole('group', { name: 'Assign the selected cases to' }));
    await picker.findByText(halFingerprint);
    // The case page's warning: someone without keys could not open what they are given.
    expect(picker.getByRole('checkbox', { name: /^Ada Lovelace/ })).toHaveAccessibleDescription(
      'cannot read reports yet: an admin must grant them access first',
    );
    fireEvent.click(picker.getByRole('checkbox', { name: /^Hal Handler/ }));
    fireEvent.click(picker.getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Assigned 2 cases.')).toBeInTheDocument();

    const puts = seen.filter((request) => request.method === 'PUT');
    expect(puts.map((request) => request.url)).toEqual([
      `/api/incident/${results[0]!.uuid}/`,
      `/api/incident/${results[2]!.uuid}/`,
    ]);
    const bodies = puts.map(
      (request) =>
        request.body as { assignee_uuids: string[]; grants: { user_id: string; wrapped_passphrase: string }[] },
    );
    expect(bodies.map((body) => body.assignee_uuids)).toEqual([[ADA.uuid, HAL], [HAL]]);
    for (const [index, body] of bodies.entries()) {
      expect(body.grants.map((grant) => grant.user_id)).toEqual([HAL]);
      const keys = [results[0]!, results[2]!][index]!.keys;
      const opened = await openIncidentWithGrant({ ...keys, grant: body.grants[0]!.wrapped_passphrase, person: hal });
      expect(opened.publicKey).toBe(keys.credential.public_key);
    }
    // The list is asked again, and nothing stays selected.
    await waitFor(() =>
      expect(seen.filter((request) => request.url.startsWith('/api/incident/?')).length).toBeGreaterThan(1),
    );
    expect(screen.getByRole('checkbox', { name: 'Select case #1' })).not.toBeChecked();
  });

  it('when one case of the selection is refused, then the others are assigned, the refused one is named and stays selected', async () => {
    const { results } = await openList(({ method, url }) => {
      if (method !== 'PUT') return undefined;
      return url.includes(results[1]!.uuid)
        ? json(400, { assignee_uuids: ['Someone excluded from this case cannot be assigned to it'] })
        : json(200, {});
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all cases on this page' }));
    fireEvent.click(region().getByRole('button', { name: 'Assign' }));
    const picker = within(await screen.findByRole('group', { name: 'Assign the selected cases to' }));
    fireEvent.click(picker.getByRole('checkbox', { name: /^Hal Handler/ }));
    fireEvent.click(picker.getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Assigned 2 cases.')).toBeInTheDocument();
    const alert = within(screen.getByRole('alert'));
    expect(alert.getByText('1 case was not assigned:')).toBeInTheDocument();
    expect(
      alert.getByText('#2: refused: someone chosen is excluded from this case or no longer on the team'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Select case #2' })).toBeChecked());
    expect(screen.getByRole('checkbox', { name: 'Select case #1' })).not.toBeChecked();
  });

  it('when the grants cannot be made (keys not those of the fingerprint shown), then that case is not sent and is reported', async () => {
    const other = await createPersonKeys();
    const { seen } = await openList(({ url }) => {
      if (url !== '/api/account/company/keys/people') return undefined;
      const team = teamAnswer();
      team.people[1]!.public_key = other.publicKeys.public_key;
      return json(200, team);
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #2' }));
    fireEvent.click(region().getByRole('button', { name: 'Assign' }));
    const picker = within(await screen.findByRole('group', { name: 'Assign the selected cases to' }));
    await picker.findByText(halFingerprint);
    fireEvent.click(picker.getByRole('checkbox', { name: /^Hal Handler/ }));
    fireEvent.click(picker.getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('#2: not saved, please try again')).toBeInTheDocument();
    expect(seen.filter((request) => request.method === 'PUT')).toEqual([]);
  });

  it('when nobody is chosen, then it says so and sends nothing', async () => {
    const { seen } = await openList();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    fireEvent.click(region().getByRole('button', { name: 'Assign' }));
    const picker = within(await screen.findByRole('group', { name: 'Assign the selected cases to' }));
    fireEvent.click(picker.getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Choose at least one person.')).toBeInTheDocument();
    expect(seen.filter((request) => request.method === 'PUT')).toEqual([]);
  });

  it('when a reviewer selects cases, then they may assign them, as they may assign one case', async () => {
    await openList(undefined, staffSession(company.privateKey, staffState(['REVIEWER'])));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    expect(region().getByRole('button', { name: 'Assign' })).toBeInTheDocument();
  });

  it('when a handler selects cases, then they may export them but not assign them', async () => {
    await openList(undefined, staffSession(company.privateKey, staffState(['HANDLER'])));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    expect(region().getByRole('button', { name: 'Export selected' })).toBeInTheDocument();
    expect(region().queryByRole('button', { name: 'Assign' })).toBeNull();
  });
});

describe('export of the selection', () => {
  it('when "Export selected" is chosen, then the export is of those cases only, in the list’s order, with the spec’s columns', async () => {
    const { results } = await openList();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #3' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    fireEvent.click(region().getByRole('button', { name: 'Export selected' }));
    const [request] = worker.requests;
    expect(request!.query).toEqual({ incident: [results[0]!.uuid, results[2]!.uuid], sort: 'created' });
    expect(request!.extended).toBeUndefined();
    act(() => worker.answer({ type: 'done', csv: '', count: 2 }));
    expect(region().getByText('Exported 2 cases.')).toBeInTheDocument();
  });
});
