import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { IncidentStaffView } from '@whistle/contracts';
import {
  createPersonKeys,
  DecryptionError,
  decryptContent,
  decryptNote,
  encryptContent,
  importPersonKeys,
  verifyStaffContent,
  type StaffSignature,
} from '@whistle/crypto';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import {
  encryptedReport,
  json,
  staffHandle,
  staffSession,
  staffState,
  staffView,
  testCompany,
  testKeyring,
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

/** A case whose report, one discloser message and one staff reply were encrypted as the browsers do. */
async function scenario(overrides: Partial<IncidentStaffView> = {}) {
  const report = await encryptedReport(company, {
    outcome: 'Stop it',
    description: 'Invoices paid twice',
    full_name: 'Jane Doe',
    date: '2026-03-04',
    end_date: '2026-03-06',
    people_involved: '',
  });
  const publicKey = report.credentials.incident.publicKey;
  const view = staffView({ uuid, keys: report.keys, fields: report.fields, report_anonymously: false, ...overrides });
  const messages = [
    {
      uuid: 'm1',
      incident_uuid: uuid,
      content: await encryptContent(publicKey, 'Any news?', { kind: 'message', from: 'discloser' }),
      created: '2026-11-21T10:00:00Z',
      sender: { name: 'Discloser', source: 'DISCLOSER' },
    },
    {
      uuid: 'm2',
      incident_uuid: uuid,
      content: await encryptContent(publicKey, 'We are on it', { kind: 'message', from: 'staff' }),
      created: '2026-11-22T10:00:00Z',
      sender: { name: 'Hal Handler', source: 'STAFF' },
      feedback: true,
    },
  ];
  const requests: { method: string; url: string; body: unknown }[] = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const method = init.method ?? 'GET';
    requests.push({ method, url, body: init.body ? JSON.parse(init.body as string) : undefined });
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, view);
    if (url.endsWith('/message') && method === 'GET') return json(200, messages);
    if (url.endsWith('/note')) return json(200, []);
    if (url.endsWith('/file')) return json(200, []);
    if (method === 'POST' && url === '/api/incident/message/') return json(201, { ...messages[1], uuid: 'm3' });
    if (method === 'PUT') return json(200, view);
    return json(404, { message: 'Not Found' });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return {
    report,
    view,
    requests,
    publicKey,
    handle: report.credentials.incident,
    staff: await staffHandle(company, report),
  };
}

function open(session = staffSession(company.privateKey)) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
}

describe('a case', () => {
  it('when opened, then every field is decrypted in the spec’s review order with its labels, empty ones hidden, dates as a range', async () => {
    await scenario();
    open();
    const report = await screen.findByRole('region', { name: 'Report' });
    await within(report).findByText('Invoices paid twice');
    const labels = within(report)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(labels).toEqual(['Name of the employee', 'Incident', 'Description', 'Location', 'Date', 'Outcome']);
    expect(within(report).getByText('Jane Doe')).toBeInTheDocument();
    expect(within(report).getByText('Fraud, Bribery')).toBeInTheDocument();
    expect(within(report).getByText('4 March 2026 - 6 March 2026')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Report #1', level: 1 })).toBeInTheDocument();
  });

  it('when the timeline shows the thread, then the reporter’s messages are received from them and staff replies are sent by staff, decrypted', async () => {
    await scenario();
    open();
    const thread = await screen.findByRole('region', { name: 'Case timeline' });
    expect(await within(thread).findByText('Any news?')).toBeInTheDocument();
    expect(within(thread).getByText('Message received from Discloser')).toBeInTheDocument();
    expect(within(thread).getByText('Message sent by Hal Handler')).toBeInTheDocument();
    expect(within(thread).getByText('We are on it')).toBeInTheDocument();
  });

  it('when staff reply as feedback, then only ciphertext of the incident key leaves the browser, and the page says the details were updated', async () => {
    const { requests, handle } = await scenario();
    open();
    const thread = await screen.findByRole('region', { name: 'Case timeline' });
    fireEvent.change(within(thread).getByLabelText('Reply to the reporter'), {
      target: { value: 'Case opened, thank you' },
    });
    fireEvent.click(within(thread).getByLabelText(/This reply is the feedback/));
    fireEvent.click(within(thread).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Incident details updated')).toBeInTheDocument();
    const sent = requests.find((request) => request.method === 'POST')!;
    const body = sent.body as { incident_uuid: string; content: string; feedback: boolean };
    expect(body).toMatchObject({ incident_uuid: uuid, feedback: true });
    expect(JSON.stringify(body)).not.toContain('Case opened');
    expect(await decryptContent(handle, body.content, { kind: 'message', from: 'staff' })).toBe(
      'Case opened, thank you',
    );
  });

  it('when staff reply with their keys unlocked, then the reply carries their signature over this case and its ciphertext; locked, none', async () => {
    const { requests, publicKey } = await scenario();
    const { publicKeys, secret } = await createPersonKeys();
    const person = await importPersonKeys(secret, publicKeys);
    open(staffSession(company.privateKey, staffState(), person, 'FING ERPR INT0 0000 0001'));
    const thread = await screen.findByRole('region', { name: 'Case timeline' });
    fireEvent.change(within(thread).getByLabelText('Reply to the reporter'), { target: { value: 'Signed reply' } });
    fireEvent.click(within(thread).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'POST')).toBe(true));
    const body = requests.find((request) => request.method === 'POST')!.body as {
      content: string;
      signature: Omit<StaffSignature, 'signer_key_id'>;
    };
    const keyId = 'b0000000-0000-4000-8000-000000000001';
    const team = new Map([
      [keyId, { key_id: keyId, signing_public_key: publicKeys.signing_public_key, role: 'HANDLER' as const }],
    ]);
    const signed = { incidentPublicKey: publicKey, kind: 'message' as const, ciphertexts: [body.content] };
    await expect(
      verifyStaffContent(team, { ...signed, signature: { ...body.signature, signer_key_id: keyId } }),
    ).resolves.toBe(true);
  });

  it('when staff reply without their own keys unlocked, then the reply goes out unsigned', async () => {
    const { requests } = await scenario();
    open();
    const thread = await screen.findByRole('region', { name: 'Case timeline' });
    fireEvent.change(within(thread).getByLabelText('Reply to the reporter'), { target: { value: 'Unsigned' } });
    fireEvent.click(within(thread).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'POST')).toBe(true));
    expect(requests.find((request) => request.method === 'POST')!.body).not.toHaveProperty('signature');
  });

  it('when a case is closed, then an outcome and a motivation are required, and the motivation travels encrypted', async () => {
    const { requests, handle, staff } = await scenario({ status: { name: 'INVESTIGATION' } });
    open();
    const actions = await screen.findByRole('region', { name: 'Status' });
    expect(within(actions).queryByRole('button', { name: 'Acknowledge receipt' })).not.toBeInTheDocument();
    fireEvent.click(within(actions).getByRole('button', { name: 'Close the case' }));
    const form = within(actions).getByRole('form', { name: 'Close the case' });
    fireEvent.click(within(form).getByRole('button', { name: 'Close the case' }));
    expect(await within(form).findAllByText('This field is required')).toHaveLength(2);
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);
    fireEvent.change(within(form).getByLabelText('Outcome'), { target: { value: 'substantiated' } });
    fireEvent.change(within(form).getByLabelText('Motivation'), { target: { value: 'Ledger proves it' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Close the case' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'PUT')).toBe(true));
    const update = requests.find((request) => request.method === 'PUT')!;
    expect(update.url).toBe(`/api/incident/${uuid}/`);
    const body = update.body as { status: string; outcome: string; motivation: string };
    expect(body).toMatchObject({ status: 'CLOSED', outcome: 'substantiated' });
    // Under the notes key: the case team reads it, the reporter's secret code does not open it.
    expect(body.motivation).toMatch(/^v3\./);
    expect(await decryptNote(staff, body.motivation, 'motivation')).toBe('Ledger proves it');
    await expect(decryptNote(handle, body.motivation, 'motivation')).rejects.toThrow(DecryptionError);
  });

  it('when the viewer may not assign or exclude, then those controls are not offered; a handler may still move and reply', async () => {
    await scenario({
      permissions: {
        update_status: true,
        reply: true,
        add_note: true,
        assign: false,
        exclude: false,
        change_categories: false,
      },
    });
    open();
    const people = await screen.findByRole('region', { name: 'People' });
    expect(within(people).queryByRole('group', { name: 'Assign the case' })).not.toBeInTheDocument();
    expect(within(people).queryByText(/Exclude from this case/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Acknowledge receipt' })).toBeInTheDocument();
  });

  it('when the company key is locked, then the case says it cannot be read and why', async () => {
    await scenario();
    open(staffSession(undefined));
    expect(await screen.findByRole('heading', { name: 'This case is locked' })).toBeInTheDocument();
  });

  it('when the page is loaded at the case’s address, then it waits for the session to unlock the key before reading the case', async () => {
    await scenario();
    // As after a page load: the shell is still unlocking the company key when the case page mounts.
    let privateKey: CryptoKey | undefined;
    let unlock: () => void = () => undefined;
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    open({
      ...staffSession(undefined),
      staff: async () => {
        await unlocked;
        privateKey = company.privateKey;
        return staffState();
      },
      keyring: testKeyring(() => privateKey),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    unlock();
    const report = await screen.findByRole('region', { name: 'Report' });
    expect(await within(report).findByText('Invoices paid twice')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'This case is locked' })).not.toBeInTheDocument();
  });
});
