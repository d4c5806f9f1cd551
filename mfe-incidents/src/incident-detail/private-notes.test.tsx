import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { IncidentNote } from '@whistle/contracts';
import { DecryptionError, decryptNote, encryptContent, encryptNote, openIncidentAsDiscloser } from '@whistle/crypto';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import {
  encryptedReport,
  json,
  staffHandle,
  staffSession,
  staffView,
  testCompany,
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

/*
 * Issue #25 item 3: private notes are encrypted to a key the discloser never holds. The case page writes them under
 * the case's notes key (v3) and reads only those as the case team's notes.
 */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';
const hal = { uuid: '22222222-2222-4222-8222-222222222222', full_name: 'Hal Handler' };

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

const note = (n: number, content: string): IncidentNote => ({
  uuid: `d0000000-0000-4000-8000-00000000000${n}`,
  incident_uuid: uuid,
  content,
  created: `2026-11-2${n}T12:00:00.000Z`,
  author: hal,
});

/** A case whose server answers `notes`, and records what the page posts. */
async function scenario(notes: (staff: Awaited<ReturnType<typeof staffHandle>>) => Promise<IncidentNote[]>) {
  const report = await encryptedReport(company, { description: 'Invoices paid twice' });
  const staff = await staffHandle(company, report);
  const view = staffView({ uuid, keys: report.keys, fields: report.fields, status: { name: 'INVESTIGATION' } });
  const listed = await notes(staff);
  const posted: { incident_uuid: string; content: string }[] = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const method = init.method ?? 'GET';
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, view);
    if (method === 'GET' && url.endsWith('/note')) return json(200, listed);
    if (url.endsWith('/message') || url.endsWith('/file')) return json(200, []);
    if (method === 'POST' && url === '/api/incident/note/') {
      const body = JSON.parse(init.body as string) as { incident_uuid: string; content: string };
      posted.push(body);
      return json(201, note(9, body.content));
    }
    return json(404, { message: 'Not Found' });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return { report, staff, posted };
}

function open() {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(company.privateKey)}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
}

describe('private notes under the case notes key', () => {
  it('when a handler adds a note, then it travels as a v3 ciphertext the case team opens and the reporter’s secret code does not', async () => {
    const { report, staff, posted } = await scenario(async () => []);
    open();
    fireEvent.change(await screen.findByLabelText('New note'), { target: { value: 'The manager is a suspect' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    const { content } = posted[0]!;
    expect(content).toMatch(/^v3\./);
    expect(content).not.toContain('suspect');
    expect(await decryptNote(staff, content)).toBe('The manager is a suspect');
    const discloser = await openIncidentAsDiscloser({
      ...report.credentials.payload,
      discloserPassphrase: report.credentials.discloserPassphrase,
    });
    await expect(decryptNote(discloser, content)).rejects.toThrow(DecryptionError);
  });

  it('when the case’s notes are listed, then a v3 note shows; a text encrypted to the incident public key shown as a note cannot be verified', async () => {
    await scenario(async (staff) => [
      note(1, await encryptNote(staff, 'Check the ledger first')),
      note(2, await encryptContent(staff.publicKey, 'Close it as spam', { kind: 'note' })),
    ]);
    open();
    expect(await screen.findByText('Check the ledger first')).toBeInTheDocument();
    expect(screen.queryByText('Close it as spam')).not.toBeInTheDocument();
    expect(screen.getAllByText('This text cannot be verified.')).toHaveLength(1);
  });
});
