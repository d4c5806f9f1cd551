import type { i18n } from 'i18next';
import { fireEvent, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { AuditLogEntry, IncidentStaffView } from '@whistle/contracts';
import { encryptContent, encryptNote } from '@whistle/crypto';
import { formatDate } from '@whistle/ui';
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
  useNodeWebCrypto,
  type TestCompany,
} from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
let french: i18n;
const uuid = 'a0000000-0000-4000-8000-000000000001';
const hal = { uuid: '22222222-2222-4222-8222-222222222222', full_name: 'Hal Handler' };
const ada = { type: 'STAFF' as const, uuid: '11111111-1111-4111-8111-111111111111', name: 'Ada Admin' };

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
});
afterAll(() => {
  global.fetch = realFetch;
});

let auditId = 0;
const audit = (action: string, occurred_at: string, success = true): AuditLogEntry => ({
  uuid: `e0000000-0000-4000-8000-${String((auditId += 1)).padStart(12, '0')}`,
  action,
  success,
  table_identifier: 'incident',
  object_uuid: uuid,
  incident_uuid: uuid,
  actor: ada,
  occurred_at,
});

/**
 * A case received on 20 November with, in time order: an opening and an assignment (trail), the reporter's
 * message with a file, a private note, the acknowledgement, a feedback reply, a refused download (trail). The
 * trail also records what the case's own records show (the report, the reply, the note, the status move).
 */
async function scenario({ trailFails = false } = {}) {
  const report = await encryptedReport(company, { description: 'Invoices paid twice' });
  const publicKey = report.credentials.incident.publicKey;
  const view: IncidentStaffView = staffView({
    uuid,
    keys: report.keys,
    fields: report.fields,
    created: '2026-11-20T11:30:00.000Z',
    status: { name: 'ACKNOWLEDGED' },
    status_history: [
      {
        from: 'NEW',
        to: 'ACKNOWLEDGED',
        outcome: null,
        motivation: null,
        changed_by: hal,
        changed_at: '2026-11-21T13:00:00.000Z',
      },
    ],
  });
  const messages = [
    {
      uuid: 'b0000000-0000-4000-8000-000000000001',
      incident_uuid: uuid,
      content: await encryptContent(publicKey, 'Any news?', { kind: 'message', from: 'discloser' }),
      created: '2026-11-21T11:00:00.000Z',
      sender: { name: 'Discloser', source: 'DISCLOSER' },
    },
    {
      uuid: 'b0000000-0000-4000-8000-000000000002',
      incident_uuid: uuid,
      content: await encryptContent(publicKey, 'We are on it', { kind: 'message', from: 'staff' }),
      created: '2026-11-22T11:00:00.000Z',
      sender: { name: 'Hal Handler', source: 'STAFF' },
      feedback: true,
    },
  ];
  const notes = [
    {
      uuid: 'd0000000-0000-4000-8000-000000000001',
      incident_uuid: uuid,
      content: await encryptNote(await staffHandle(company, report), 'Check the ledger first'),
      created: '2026-11-21T12:00:00.000Z',
      author: hal,
    },
  ];
  const file = {
    uuid: 'f0000000-0000-4000-8000-000000000001',
    incident_uuid: uuid,
    incident_message_uuid: messages[0]!.uuid,
    file_size: 2048,
    mime_type: 'application/pdf',
    created: '2026-11-21T11:00:00.000Z',
  };
  const trail = [
    audit('file-downloaded', '2026-11-22T12:00:00.000Z', false),
    audit('incident-message-sent', '2026-11-22T11:00:00.000Z'),
    audit('incident-status-changed', '2026-11-21T13:00:00.000Z'),
    audit('incident-note-added', '2026-11-21T12:00:00.000Z'),
    audit('incident-assigned', '2026-11-21T10:15:00.000Z'),
    audit('incident-opened', '2026-11-21T10:00:00.000Z'),
    audit('incident-reported', '2026-11-20T11:30:00.000Z'),
  ];
  const trailAsked: string[] = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const method = init.method ?? 'GET';
    if (url.startsWith('/api/account/company/audit_log')) {
      trailAsked.push(url);
      return trailFails
        ? json(503, { message: 'Unavailable' })
        : json(200, { count: trail.length, page: 1, page_size: 200, results: trail });
    }
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, view);
    if (url.endsWith('/message') && method === 'GET') return json(200, messages);
    if (url.endsWith('/note') && method === 'GET') return json(200, notes);
    if (url.endsWith('/file') && method === 'GET') return json(200, [file]);
    if (url === `/api/incident/file/${file.uuid}`)
      return json(200, {
        ...file,
        file_name: await encryptContent(publicKey, 'ledger.pdf', { kind: 'file-name' }),
        encrypted_key: 'k',
      });
    return json(404, { message: 'Not Found' });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return { trailAsked };
}

function open(roles: string[] = ['ADMIN'], language = english) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(company.privateKey, staffState(roles))}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    language,
  );
}

/** The timeline's entries as shown (not the files listed in them), each its first line: what happened and who. */
const shownEntries = (timeline: HTMLElement) =>
  [...timeline.querySelectorAll(':scope .case-timeline__day > ol > li')].map(
    (item) => item.querySelector('strong')!.textContent,
  );

async function entriesOf(timeline: HTMLElement) {
  await within(timeline).findByText('We are on it');
  return shownEntries(timeline);
}

describe('the case timeline', () => {
  it('when an admin opens a case, then everything that happened is one list, oldest first, each fact once, by day', async () => {
    const { trailAsked } = await scenario();
    open();
    const timeline = await screen.findByRole('region', { name: 'Case timeline' });
    await within(timeline).findByText('File downloaded, by Ada Admin');
    expect(await entriesOf(timeline)).toEqual([
      'Report received',
      'Case opened, by Ada Admin',
      'Assignees changed, by Ada Admin',
      'Message received from Discloser',
      'Private note by Hal Handler',
      'Acknowledged, by Hal Handler',
      'Message sent by Hal Handler',
      'File downloaded, by Ada Admin',
    ]);
    expect(
      within(timeline)
        .getAllByRole('heading', { level: 3 })
        .slice(0, 3)
        .map((day) => day.textContent),
    ).toEqual(['2026-11-20', '2026-11-21', '2026-11-22'].map((day) => formatDate(`${day}T12:00:00Z`, 'en')));
    // Each entry has its machine-readable time.
    const note = within(timeline).getByText('Private note by Hal Handler').closest('li')!;
    expect(note.querySelector('time')!.getAttribute('dateTime')).toBe('2026-11-21T12:00:00.000Z');
    expect(trailAsked).toEqual([`/api/account/company/audit_log/?incident=${uuid}&page=1&page_size=200`]);
    // The case itself was asked (and decrypted) first.
    expect(fetchMock.mock.calls[0]![0]).toBe(`/api/incident/${uuid}`);
  });

  it('when each kind shows, then it shows decrypted and in words: messages with their files, notes, status, refusals', async () => {
    await scenario();
    open();
    const timeline = await screen.findByRole('region', { name: 'Case timeline' });
    const download = (await within(timeline).findByText('File downloaded, by Ada Admin')).closest('li')!;
    expect(within(download).getByText('Refused')).toBeInTheDocument();
    const question = (await within(timeline).findByText('Any news?')).closest('li')!;
    expect(await within(question).findByRole('button', { name: /^Download\s+ledger\.pdf$/ })).toBeInTheDocument();
    const reply = within(timeline).getByText('We are on it').closest('li')!;
    expect(within(reply).getByText('Feedback')).toBeInTheDocument();
    expect(within(timeline).getByText('Check the ledger first')).toBeInTheDocument();
    expect(within(timeline).getByText('Online')).toBeInTheDocument();
  });

  it('when kinds are unticked, then only the entries of the ticked ones show, a message with a file under files too', async () => {
    await scenario();
    open();
    const timeline = await screen.findByRole('region', { name: 'Case timeline' });
    await within(timeline).findByText('File downloaded, by Ada Admin');
    const filter = within(timeline).getByRole('group', { name: 'Show' });
    const boxes = within(filter).getAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('label')!.textContent!.trim())).toEqual([
      'Messages (2)',
      'Notes (1)',
      'Status (2)',
      'Assignment (1)',
      'Files (2)',
      'Views and exports (1)',
    ]);
    for (const box of boxes) fireEvent.click(box);
    expect(within(timeline).getByText('Nothing to show with these filters.')).toBeInTheDocument();
    fireEvent.click(within(filter).getByLabelText('Files (2)'));
    expect(shownEntries(timeline)).toEqual(['Message received from Discloser', 'File downloaded, by Ada Admin']);
    fireEvent.click(within(filter).getByLabelText('Files (2)'));
    fireEvent.click(within(filter).getByLabelText('Notes (1)'));
    fireEvent.click(within(filter).getByLabelText('Assignment (1)'));
    expect(shownEntries(timeline)).toEqual(['Assignees changed, by Ada Admin', 'Private note by Hal Handler']);
  });

  it('when a handler opens a case, then the timeline holds the case’s records without the trail, never asked for', async () => {
    const { trailAsked } = await scenario();
    open(['HANDLER']);
    const timeline = await screen.findByRole('region', { name: 'Case timeline' });
    expect(await entriesOf(timeline)).toEqual([
      'Report received',
      'Message received from Discloser',
      'Private note by Hal Handler',
      'Acknowledged, by Hal Handler',
      'Message sent by Hal Handler',
    ]);
    const filter = within(timeline).getByRole('group', { name: 'Show' });
    expect(within(filter).queryByLabelText(/Assignment/)).not.toBeInTheDocument();
    expect(within(filter).queryByLabelText(/Views and exports/)).not.toBeInTheDocument();
    expect(trailAsked).toEqual([]);
  });

  it('when the trail cannot be read, then the case’s records still show and the timeline says so', async () => {
    await scenario({ trailFails: true });
    open();
    const timeline = await screen.findByRole('region', { name: 'Case timeline' });
    expect(await within(timeline).findByRole('alert')).toHaveTextContent('The audit trail could not be loaded.');
    expect(await entriesOf(timeline)).toContain('Private note by Hal Handler');
  });

  it('when shown in French, then the timeline and its filter are in French', async () => {
    await scenario();
    open(['ADMIN'], french);
    const timeline = await screen.findByRole('region', { name: 'Chronologie du dossier' });
    await within(timeline).findByText('We are on it');
    expect(within(timeline).getByRole('group', { name: 'Afficher' })).toBeInTheDocument();
    expect(within(timeline).getByText('Signalement reçu')).toBeInTheDocument();
    expect(within(timeline).getByText('Note privée de Hal Handler')).toBeInTheDocument();
  });
});
