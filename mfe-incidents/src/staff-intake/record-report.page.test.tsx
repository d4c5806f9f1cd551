import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
import {
  createPersonKeys,
  decryptNote,
  decryptReportFields,
  encryptNote,
  importPersonKeys,
  openIncidentAsCompany,
  openIncidentWithGrant,
  personFingerprint,
} from '@whistle/crypto';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { openCasePage } from '../../test/case-page';
import { renderWithI18n } from '../../test/render';
import {
  json,
  staffSession,
  staffState,
  testCompany,
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

/** Issue 26 item 2 (directive art. 18): staff record a report taken by telephone or in a meeting. */
const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const CASE = 'b0000000-0000-4000-8000-000000000002';
const RETRIEVAL = '0123456789abcdef0123';
const FRAUD = 'c0000000-0000-4000-8000-000000000001';
const OFFICE = 'd0000000-0000-4000-8000-000000000001';

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

function open(session: StaffSession) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: ['/company/incidents/record'] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
}

/** Keys of a staff member, as the shell's keyring holds them once unlocked. */
async function personKeys() {
  const { publicKeys, secret } = await createPersonKeys();
  return { keys: await importPersonKeys(secret, publicKeys), fingerprint: await personFingerprint(publicKeys) };
}

function fakeServer(recipientKeys: { key_id: string; public_key: string }[] = []) {
  const sent: { url: string; body: string; headers: Headers }[] = [];
  fetchMock.mockImplementation(async (url, init) => {
    if ((init.method ?? 'GET') === 'GET' && url === '/api/account/company/acme-corporation')
      return json(200, {
        url_identifier: 'acme-corporation',
        name: 'Acme',
        public_key: company.publicKey,
        key_version: 1,
        categories: [{ uuid: FRAUD, name: 'Fraud', parent_uuid: null, recipient_keys: recipientKeys }],
        locations: [{ uuid: OFFICE, name: 'Head office' }],
      });
    if (init.method === 'POST' && url === '/api/incident/recorded') {
      sent.push({ url, body: String(init.body), headers: new Headers(init.headers) });
      return json(201, { uuid: CASE, retrieval_id: RETRIEVAL });
    }
    return json(404, {});
  });
  return sent;
}

it('sends only ciphertext the company key opens, and shows the reporter’s code once with the warning', async () => {
  const sent = fakeServer();
  open(staffSession(company.privateKey, staffState(['HANDLER'])));
  fireEvent.click(await screen.findByRole('radio', { name: 'In a meeting' }));
  fireEvent.click(screen.getByRole('checkbox', { name: 'Fraud' }));
  fireEvent.change(screen.getByRole('combobox', { name: /Location/ }), { target: { value: OFFICE } });
  fireEvent.change(screen.getByRole('textbox', { name: /Description/ }), {
    target: { value: 'Canary-7f3e said the invoices were paid twice' },
  });
  const anonymous = screen.getByRole('group', { name: 'Does the reporter want to stay anonymous?' });
  fireEvent.click(within(anonymous).getByRole('radio', { name: 'No' }));
  fireEvent.change(await screen.findByRole('textbox', { name: 'Name of the employee' }), {
    target: { value: 'Grace Canary' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Record the report' }));

  expect(await screen.findByRole('heading', { name: 'The report is recorded' })).toBeInTheDocument();
  expect(sent).toHaveLength(1);
  const { body } = sent[0]!;
  expect(body).not.toMatch(/Canary/);
  const payload = JSON.parse(body);
  expect(payload).toMatchObject({
    url_identifier: 'acme-corporation',
    report_channel: 'internal',
    report_anonymously: false,
    category_uuids: [FRAUD],
    location_uuid: OFFICE,
    company_key_version: 1,
  });
  // The company opens it as any report: same keys as a reporter's.
  const handle = await openIncidentAsCompany({ ...payload, companyPrivateKey: company.privateKey });
  expect(await decryptReportFields(handle, payload.fields)).toEqual(
    expect.arrayContaining([
      { name: 'description', value: 'Canary-7f3e said the invoices were paid twice' },
      { name: 'full_name', value: 'Grace Canary' },
      { name: 'can_contact', value: 'yes' },
    ]),
  );

  // Shown whole, in groups to read out: the groups joined are the code made from the server's retrieval id.
  const code = screen.getByRole('group', { name: "Reporter's secret code" });
  expect(code.querySelector('.record-code__value')?.textContent?.replace(/\s/g, '')).toMatch(
    new RegExp(`^${RETRIEVAL}:.+`),
  );
  expect(screen.getByRole('alert')).toHaveTextContent('Do not store this code anywhere');
  expect(screen.getByRole('link', { name: 'Open the case' })).toHaveAttribute('href', `/company/incidents/${CASE}`);
});

/** Fills in what a report needs and sends it. */
async function recordOne() {
  fireEvent.click(await screen.findByRole('checkbox', { name: 'Fraud' }));
  fireEvent.change(screen.getByRole('combobox', { name: /Location/ }), { target: { value: OFFICE } });
  fireEvent.change(screen.getByRole('textbox', { name: /Description/ }), { target: { value: 'Told on the phone' } });
  fireEvent.click(screen.getByRole('button', { name: 'Record the report' }));
  expect(await screen.findByRole('heading', { name: 'The report is recorded' })).toBeInTheDocument();
}

it('wraps a handler’s record to their own key too, so they open it without the company key', async () => {
  const recorder = await personKeys();
  const assignee = await personKeys();
  const ASSIGNEE_KEY = 'f0000000-0000-4000-8000-000000000001';
  const sent = fakeServer([{ key_id: ASSIGNEE_KEY, public_key: assignee.keys.publicKeys.public_key }]);
  // No company key in this browser: only the handler's own keys.
  open(staffSession(undefined, staffState(['HANDLER']), recorder.keys, recorder.fingerprint));
  await recordOne();
  const payload = JSON.parse(sent[0]!.body);
  expect(payload.recorder_grant.fingerprint).toBe(recorder.fingerprint);
  const mine = await openIncidentWithGrant({
    ...payload,
    grant: payload.recorder_grant.wrapped_passphrase,
    person: recorder.keys,
  });
  expect(await decryptReportFields(mine, payload.fields)).toEqual(
    expect.arrayContaining([{ name: 'description', value: 'Told on the phone' }]),
  );
  // The category's default assignee gets theirs, as from a reporter's form; the recorder's is not among them.
  expect(payload.grants.map((grant: { key_id: string }) => grant.key_id)).toEqual([ASSIGNEE_KEY]);
  const theirs = await openIncidentWithGrant({
    ...payload,
    grant: payload.grants[0].wrapped_passphrase,
    person: assignee.keys,
  });
  expect(theirs.publicKey).toBe(payload.credential.public_key);
  // Both grants carry the case team secret: the assignee reads the recorder's note, under the case's notes key.
  expect(await decryptNote(theirs, await encryptNote(mine, 'Caller sounded afraid'))).toBe('Caller sounded afraid');
  expect(payload.credential.aes_encrypted_private_key).toMatch(/^v2\./);
});

it('wraps no grant to an admin’s own key: they are not assigned what they record', async () => {
  const recorder = await personKeys();
  const sent = fakeServer();
  open(staffSession(company.privateKey, staffState(['ADMIN']), recorder.keys, recorder.fingerprint));
  await recordOne();
  const payload = JSON.parse(sent[0]!.body);
  expect(payload).not.toHaveProperty('recorder_grant');
  expect(payload).not.toHaveProperty('grants');
});

it('asks for what a report needs before sending anything', async () => {
  const sent = fakeServer();
  open(staffSession(company.privateKey, staffState(['ADMIN'])));
  fireEvent.click(await screen.findByRole('button', { name: 'Record the report' }));
  await waitFor(() => expect(screen.getAllByText('This field is required')).toHaveLength(3));
  expect(sent).toHaveLength(0);
});

it('records nothing for a reviewer', async () => {
  fakeServer();
  open(staffSession(company.privateKey, staffState(['REVIEWER'])));
  expect(await screen.findByText('Only admins and handlers can record reports.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Record the report' })).not.toBeInTheDocument();
});

it('shows on the case who recorded it and whether the reporter approved the record', async () => {
  const recorded = { recorded_by: { uuid: 'e0000000-0000-4000-8000-000000000001', full_name: 'Hal Handler' } };
  await openCasePage({
    company,
    language: english,
    fetchMock,
    view: (base) => ({ ...base, ...recorded, report_channel: 'telephone', record_approved_at: null }),
  });
  expect(screen.getByText(/Recorded by Hal Handler from a telephone call/)).toHaveTextContent(
    'Not yet approved by the reporter',
  );
});

it('says approved once the reporter approved it', async () => {
  await openCasePage({
    company,
    language: english,
    fetchMock,
    view: (base) => ({
      ...base,
      recorded_by: { uuid: 'e0000000-0000-4000-8000-000000000001', full_name: 'Hal Handler' },
      report_channel: 'internal',
      record_approved_at: '2026-03-05T09:30:00.000Z',
    }),
  });
  const line = screen.getByText(/Recorded by Hal Handler from a meeting/);
  expect(line).toHaveTextContent('Approved by the reporter');
  expect(line).not.toHaveTextContent('Not yet');
});
