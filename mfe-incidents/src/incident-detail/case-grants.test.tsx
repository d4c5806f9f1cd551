import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncidentStaffView } from '@whistle/contracts';
import {
  createIncidentCredentials,
  createPersonKeys,
  grantIncidentPassphrase,
  importPersonKeys,
  openIncidentWithGrant,
  personFingerprint,
  type PersonKeys,
} from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { openCasePage, CASE_UUID, type SeenRequest } from '../../test/case-page';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { StaffSessionContext } from '@whistle/ui/staff';
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
import { incidentsRoutes } from '../incidents.routes';

/*
 * Per-case grants in the browser (docs/security.md, "Per-case grants"): an admin's page wraps the case's passphrase
 * to the people it assigns, to the keys whose fingerprints it shows; a handler's page opens the case with their own
 * grant, and nothing else they are handed.
 */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
let hal: { keys: PersonKeys; fingerprint: string };
let olga: { keys: PersonKeys; fingerprint: string };
const HAL = '22222222-2222-4222-8222-222222222222';
const ADA = '11111111-1111-4111-8111-111111111111';

async function person() {
  const { publicKeys, secret } = await createPersonKeys();
  return { keys: await importPersonKeys(secret, publicKeys), fingerprint: await personFingerprint(publicKeys) };
}

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
  [hal, olga] = await Promise.all([person(), person()]);
});
afterAll(() => {
  global.fetch = realFetch;
});

/** The team list as auth serves it; `halKeys` are the keys it says are Hal's. */
const teamAnswer = (halKeys: PersonKeys, halFingerprint: string) => ({
  people: [
    {
      user_id: ADA,
      full_name: 'Ada Lovelace',
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
      public_key: halKeys.publicKeys.public_key,
      signing_public_key: halKeys.publicKeys.signing_public_key,
      fingerprint: halFingerprint,
      company_key: 'missing',
      access_request: null,
    },
  ],
});

async function assignHal(team: ReturnType<typeof teamAnswer>) {
  const { requests, view } = await openCasePage({
    company,
    language: english,
    fetchMock,
    answer: ({ method, url }) => {
      if (method === 'GET' && url === '/api/account/company/keys/people') return json(200, team);
      if (method === 'PUT' && url === `/api/incident/${CASE_UUID}/`) return json(200, undefined);
      return undefined;
    },
  });
  const picker = within(await screen.findByRole('group', { name: 'Assign the case' }));
  // The page shows the fingerprint it wraps to.
  await picker.findByText(team.people[1]!.fingerprint!);
  fireEvent.click(picker.getByRole('checkbox', { name: /^Hal Handler/ }));
  fireEvent.click(picker.getByRole('button', { name: 'Save assignees' }));
  return { requests, view };
}

const puts = (requests: SeenRequest[]) => requests.filter((request) => request.method === 'PUT');

describe('per-case grants in the case page', () => {
  it("when an admin assigns a handler, then the passphrase goes with the assignment wrapped to the handler's key, and only that key opens it", async () => {
    const { requests, view } = await assignHal(teamAnswer(hal.keys, hal.fingerprint));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    const body = puts(requests)[0]!.body as {
      assignee_uuids: string[];
      grants: { user_id: string; fingerprint: string; wrapped_passphrase: string }[];
    };
    expect(body.assignee_uuids).toEqual([HAL]);
    expect(body.grants.map(({ user_id, fingerprint }) => ({ user_id, fingerprint }))).toEqual([
      { user_id: HAL, fingerprint: hal.fingerprint },
    ]);
    const grant = body.grants[0]!.wrapped_passphrase;
    const opened = await openIncidentWithGrant({ ...view.current.keys, grant, person: hal.keys });
    expect(opened.publicKey).toBe(view.current.keys.credential.public_key);
    await expect(openIncidentWithGrant({ ...view.current.keys, grant, person: olga.keys })).rejects.toThrow();
  });

  it('when the team list names keys that are not those of the fingerprint it shows, then nothing is wrapped or sent', async () => {
    const { requests } = await assignHal(teamAnswer(olga.keys, hal.fingerprint));
    expect(await screen.findByText('The change could not be saved. Please try again.')).toBeInTheDocument();
    expect(puts(requests)).toEqual([]);
  });

  it('when a handler holds a grant of the case, then their page opens it with their own key, without the company key', async () => {
    await openCasePage({
      company,
      language: english,
      fetchMock,
      state: staffState(['HANDLER']),
      person: hal.keys,
      holdsCompanyKey: false,
      view: async (base) => withGrant(base, hal.keys),
    });
    expect(screen.getByText('Invoices paid twice')).toBeInTheDocument();
  });

  it('when a handler is handed a grant of another case, then the case does not open', async () => {
    const other = await createIncidentCredentials(company.publicKey);
    await openCasePage({
      company,
      language: english,
      fetchMock,
      state: staffState(['HANDLER']),
      person: hal.keys,
      holdsCompanyKey: false,
      view: async (base) => {
        const foreign = await withGrant({ ...base, keys: { ...base.keys, ...other.payload } }, hal.keys);
        return { ...base, keys: { ...base.keys, my_grant: foreign.keys.my_grant } };
      },
      shows: 'This case could not be loaded',
    });
    expect(screen.queryByText('Invoices paid twice')).toBeNull();
  });

  it("when a handler is handed another person's grant, then the case does not open", async () => {
    await openCasePage({
      company,
      language: english,
      fetchMock,
      state: staffState(['HANDLER']),
      person: hal.keys,
      holdsCompanyKey: false,
      view: async (base) => withGrant(base, olga.keys),
      shows: 'This case could not be loaded',
    });
    expect(screen.queryByText('Invoices paid twice')).toBeNull();
  });

  it('when a handler holds neither a grant nor the company key, then the case shows as locked', async () => {
    await openCasePage({
      company,
      language: english,
      fetchMock,
      state: staffState(['HANDLER']),
      person: hal.keys,
      holdsCompanyKey: false,
      shows: 'This case is locked',
    });
    expect(screen.queryByText('Invoices paid twice')).toBeNull();
  });

  it("when the server hands the admin a company wrapping that does not open the case's sealed key, then the page refuses it", async () => {
    const other = await createIncidentCredentials(company.publicKey);
    await openCasePage({
      company,
      language: english,
      fetchMock,
      view: (base) => ({
        ...base,
        keys: { ...base.keys, company_encrypted_passphrase: other.payload.company_encrypted_passphrase },
      }),
      shows: 'This case could not be loaded',
    });
    expect(screen.queryByText('Invoices paid twice')).toBeNull();
  });
});

describe('per-case grants in the list', () => {
  it("when a handler without the company key holds a grant of one case, then the list shows that case's reporter, and the other case as locked", async () => {
    const granted = await encryptedReport(company, { full_name: 'Jane Doe' });
    const notGranted = await encryptedReport(company, { full_name: 'John Roe' });
    const [wrapped] = await grantIncidentPassphrase({
      ...granted.keys,
      companyPrivateKeys: [company.privateKey],
      recipientPublicKeys: [hal.keys.publicKeys.public_key],
    });
    const rows = [
      listItem({
        uuid: '00000000-0000-4000-8000-000000000001',
        display_report_number: 7,
        keys: {
          ...granted.keys,
          my_grant: { key_id: '99999999-9999-4999-8999-999999999999', fingerprint: 'X', wrapped_passphrase: wrapped! },
        },
        report_anonymously: false,
        full_name: granted.fields[0]!.value,
      }),
      listItem({
        uuid: '00000000-0000-4000-8000-000000000002',
        display_report_number: 8,
        keys: notGranted.keys,
        report_anonymously: false,
        full_name: notGranted.fields[0]!.value,
      }),
    ];
    fetchMock.mockReset();
    fetchMock.mockImplementation(async () =>
      json(200, { count: 2, count_capped: false, page: 1, page_size: 20, results: rows }),
    );
    global.fetch = fetchMock as unknown as typeof fetch;
    const router = createMemoryRouter(incidentsRoutes, { initialEntries: ['/company/incidents'] });
    renderWithI18n(
      <StaffSessionContext.Provider value={staffSession(undefined, staffState(['HANDLER']), hal.keys)}>
        <RouterProvider router={router} />
      </StaffSessionContext.Provider>,
      english,
    );
    const table = await screen.findByRole('table');
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(await within(first!).findByText('Jane Doe')).toBeInTheDocument();
    expect(within(second!).getByText('Locked')).toBeInTheDocument();
    expect(screen.queryByText('John Roe')).toBeNull();
  });
});

/** The case's passphrase wrapped to `to`, as an admin's browser does it, in the view as the server hands it. */
async function withGrant(base: IncidentStaffView, to: PersonKeys): Promise<IncidentStaffView> {
  const [wrapped] = await grantIncidentPassphrase({
    ...base.keys,
    company_encrypted_passphrase: base.keys.company_encrypted_passphrase!,
    companyPrivateKeys: [company.privateKey],
    recipientPublicKeys: [to.publicKeys.public_key],
  });
  return {
    ...base,
    keys: {
      ...base.keys,
      my_grant: { key_id: '99999999-9999-4999-8999-999999999999', fingerprint: 'X', wrapped_passphrase: wrapped! },
    },
  };
}
