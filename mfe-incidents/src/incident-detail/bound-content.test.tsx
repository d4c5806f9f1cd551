import type { i18n } from 'i18next';
import { screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { IncidentStaffView } from '@whistle/contracts';
import { encryptContent, encryptNote, wrapToPublicKey } from '@whistle/crypto';
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
 * Issue #25, item 3: a server (or anyone who can write the database) that moves a ciphertext — a field swapped
 * for another, a text of another case, a note shown as a message, the reporter's message shown as the case
 * team's — gets "This text cannot be verified" on the case page, never the text, and the page still opens.
 */

const realFetch = global.fetch;
let company: TestCompany;
let english: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';
const hal = { uuid: '22222222-2222-4222-8222-222222222222', full_name: 'Hal Handler' };
const UNVERIFIABLE = 'This text cannot be verified.';

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

async function swappedCase() {
  const report = await encryptedReport(company, { description: 'Invoices paid twice', full_name: 'Jane Doe' });
  const other = await encryptedReport(company, { description: 'Another case' });
  const publicKey = report.credentials.incident.publicKey;
  const [description, fullName] = report.fields;
  const note = await encryptNote(await staffHandle(company, report), 'The manager is a suspect');
  const view: IncidentStaffView = staffView({
    uuid,
    keys: report.keys,
    // The server swapped the description and the name.
    fields: [
      { name: 'description', value: fullName!.value },
      { name: 'full_name', value: description!.value },
    ],
    report_anonymously: false,
    status: { name: 'CLOSED' },
    status_history: [
      {
        from: 'INVESTIGATION',
        to: 'CLOSED',
        outcome: 'substantiated',
        // A private note presented as the closing motivation.
        motivation: note,
        changed_by: hal,
        changed_at: '2026-11-23T13:00:00.000Z',
      },
    ],
  });
  const message = (n: number, content: string, source: 'DISCLOSER' | 'STAFF') => ({
    uuid: `b0000000-0000-4000-8000-00000000000${n}`,
    incident_uuid: uuid,
    content,
    created: `2026-11-2${n}T11:00:00.000Z`,
    sender: source === 'STAFF' ? { name: 'Hal Handler', source } : { name: 'Discloser', source },
  });
  const messages = [
    // The reporter's own message, presented as the case team's.
    message(1, await encryptContent(publicKey, 'My name is Jane', { kind: 'message', from: 'discloser' }), 'STAFF'),
    // A private note presented as a message.
    message(2, note, 'STAFF'),
    // The other case's description, moved here.
    message(3, other.fields[0]!.value, 'DISCLOSER'),
    message(4, await encryptContent(publicKey, 'We are on it', { kind: 'message', from: 'staff' }), 'STAFF'),
    // Written before binding (v1): still read.
    message(5, await wrapToPublicKey(publicKey, new TextEncoder().encode('Written in 2025'), 'content'), 'DISCLOSER'),
  ];
  const notes = [
    {
      uuid: 'd0000000-0000-4000-8000-000000000001',
      incident_uuid: uuid,
      // A staff message presented as a note.
      content: messages[3]!.content,
      created: '2026-11-21T12:00:00.000Z',
      author: hal,
    },
  ];
  global.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, view);
    if (url.endsWith('/message') && method === 'GET') return json(200, messages);
    if (url.endsWith('/note') && method === 'GET') return json(200, notes);
    if (url.endsWith('/file') && method === 'GET') return json(200, []);
    return json(404, { message: 'Not Found' });
  }) as unknown as typeof fetch;
}

describe('texts moved by the server', () => {
  it('when fields, messages, a note and a motivation were swapped, then each says it cannot be verified and the rest shows', async () => {
    await swappedCase();
    const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
    renderWithI18n(
      <StaffSessionContext.Provider value={staffSession(company.privateKey)}>
        <RouterProvider router={router} />
      </StaffSessionContext.Provider>,
      english,
    );
    const report = await screen.findByRole('region', { name: 'Report' });
    expect(await within(report).findAllByText(UNVERIFIABLE)).toHaveLength(2);
    const timeline = screen.getByRole('region', { name: 'Case timeline' });
    expect(await within(timeline).findByText('We are on it')).toBeInTheDocument();
    expect(within(timeline).getByText('Written in 2025')).toBeInTheDocument();
    // Three messages, the note and the motivation.
    expect(within(timeline).getAllByText(UNVERIFIABLE)).toHaveLength(5);
    for (const hidden of [
      'Invoices paid twice',
      'Jane Doe',
      'My name is Jane',
      'The manager is a suspect',
      'Another case',
    ])
      expect(screen.queryByText(hidden)).not.toBeInTheDocument();
  });
});
