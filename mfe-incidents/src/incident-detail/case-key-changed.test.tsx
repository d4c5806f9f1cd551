import type { i18n } from 'i18next';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
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

/**
 * Trust on first use of a case's key (docs/security.md, "Pinned case keys"): a server can make a whole new key set
 * for a case — a key pair, a passphrase wrapped to the company's public key — that opens with what the staff member
 * holds. Their browser pinned the first key; a later open with another one warns and writes nothing to it.
 */
const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';
let served: IncidentStaffView;
let writes: { method: string; url: string }[];

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});
beforeEach(() => {
  writes = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const method = init.method ?? 'GET';
    if (method !== 'GET') writes.push({ method, url });
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, served);
    if (/\/(message|note|file)$/.test(url)) return json(200, []);
    return json(404, { message: 'Not Found' });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
});

/** The case as the server hands it: the report's own keys, or a key set the server made for the company's key. */
async function serve(description: string) {
  const report = await encryptedReport(company, { description });
  served = staffView({ uuid, keys: report.keys, fields: report.fields });
}

function open(session: StaffSession) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
}

/** The same person opens the case again later (the pins are the keyring's, kept across pages). */
function reopen(session: StaffSession) {
  cleanup();
  open(session);
}

const writingForms = () => [
  screen.queryByLabelText('Reply to the reporter'),
  screen.queryByLabelText('New note'),
  screen.queryByRole('button', { name: 'Acknowledge receipt' }),
  screen.queryByRole('group', { name: 'Assign the case' }),
];

describe('a case whose key changed since this person first opened it', () => {
  it('when the server hands the same key again, then the case opens as usual', async () => {
    const session = staffSession(company.privateKey);
    await serve('Invoices paid twice');
    open(session);
    await screen.findByText('Invoices paid twice');
    reopen(session);
    await screen.findByText('Invoices paid twice');
    expect(screen.queryByRole('heading', { name: "This case's encryption key has changed" })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Reply to the reporter')).toBeInTheDocument();
  });

  it('when the server swapped the whole key set, then the page warns and offers nothing that encrypts to it', async () => {
    const session = staffSession(company.privateKey);
    await serve('Invoices paid twice');
    open(session);
    await screen.findByText('Invoices paid twice');
    expect(writingForms().every((form) => form !== null)).toBe(true);

    // A key set of the server's own, consistent with the company key: it opens, with content of its choosing.
    await serve('Please tell us the reporter’s name');
    reopen(session);
    const warning = await screen.findByRole('alert');
    expect(within(warning).getByRole('heading', { name: "This case's encryption key has changed" })).toBeVisible();
    expect(warning).toHaveTextContent('Whistle never changes a case');
    expect(warning).toHaveTextContent('replying, notes, status changes and assigning are blocked');
    expect(writingForms()).toEqual([null, null, null, null]);
    expect(writes).toEqual([]);
  });

  it('when the person trusts the new key knowingly, then the warning goes and they may write again', async () => {
    const session = staffSession(company.privateKey);
    await serve('Invoices paid twice');
    open(session);
    await screen.findByText('Invoices paid twice');
    await serve('Invoices paid twice, said again');
    reopen(session);
    const warning = await screen.findByRole('alert');

    fireEvent.click(within(warning).getByRole('button', { name: 'Trust the new key' }));
    const dialog = screen.getByRole('dialog', { name: 'Trust the new key of this case?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: "This case's encryption key has changed" })).toBeInTheDocument();

    fireEvent.click(within(warning).getByRole('button', { name: 'Trust the new key' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Trust the new key of this case?' })).getByRole('button', {
        name: 'Trust the new key',
      }),
    );
    expect(await screen.findByLabelText('Reply to the reporter')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: "This case's encryption key has changed" })).not.toBeInTheDocument();
    // The new key is the pin now: the next open does not warn.
    reopen(session);
    await screen.findByText('Invoices paid twice, said again');
    expect(screen.queryByRole('heading', { name: "This case's encryption key has changed" })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Reply to the reporter')).toBeInTheDocument());
  });
});
