import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { IncidentStaffView } from '@whistle/contracts';
import { decryptContent, decryptNote } from '@whistle/crypto';
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

const STAFF = { kind: 'message', from: 'staff' } as const;

/*
 * Closing a case (directive art. 9(1)(f)): closing is no feedback, so while feedback is due the close carries
 * a final message to the reporter, pre-filled from the outcome, editable, encrypted here, sent with the close.
 */

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

/** A case under investigation, its report encrypted as the browsers do; answers the requests the page made. */
async function scenario(overrides: Partial<IncidentStaffView> = {}) {
  const report = await encryptedReport(company, { description: 'Invoices paid twice' });
  const view = staffView({
    uuid,
    keys: report.keys,
    fields: report.fields,
    status: { name: 'INVESTIGATION' },
    ...overrides,
  });
  const requests: { method: string; url: string; body: unknown }[] = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const method = init.method ?? 'GET';
    requests.push({ method, url, body: init.body ? JSON.parse(init.body as string) : undefined });
    if (method === 'GET' && url === `/api/incident/${uuid}`) return json(200, view);
    if (url.endsWith('/message') || url.endsWith('/note') || url.endsWith('/file')) return json(200, []);
    if (method === 'PUT') return json(200, view);
    return json(404, { message: 'Not Found' });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return { requests, handle: report.credentials.incident, staff: await staffHandle(company, report) };
}

function open(language = english) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${uuid}`] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(company.privateKey)}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    language,
  );
}

describe('closing a case', () => {
  it('when a case is closed while feedback is due, then an outcome, a motivation and a final message are required, and both texts travel encrypted', async () => {
    const { requests, handle, staff } = await scenario();
    open();
    const actions = await screen.findByRole('region', { name: 'Status' });
    expect(within(actions).queryByRole('button', { name: 'Acknowledge receipt' })).not.toBeInTheDocument();
    fireEvent.click(within(actions).getByRole('button', { name: 'Close the case' }));
    const form = within(actions).getByRole('form', { name: 'Close the case' });
    const finalMessage = within(form).getByRole('textbox', { name: 'Final message to the reporter' });
    expect(finalMessage).toBeRequired();
    expect(finalMessage).toHaveValue('');
    fireEvent.click(within(form).getByRole('button', { name: 'Close the case' }));
    expect(await within(form).findAllByText('This field is required')).toHaveLength(2);
    expect(finalMessage).toHaveAccessibleDescription(
      'Feedback is due: write the reporter a final message to close the case',
    );
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);

    fireEvent.change(within(form).getByLabelText('Outcome'), { target: { value: 'substantiated' } });
    expect(finalMessage).toHaveValue(
      'Thank you for your report. We looked into it and found that your concerns were justified. We have taken measures to address them. We are now closing this case.',
    );
    fireEvent.change(within(form).getByLabelText('Motivation'), { target: { value: 'Ledger proves it' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Close the case' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'PUT')).toBe(true));
    const update = requests.find((request) => request.method === 'PUT')!;
    expect(update.url).toBe(`/api/incident/${uuid}/`);
    const body = update.body as { status: string; outcome: string; motivation: string; final_message: string };
    expect(body).toMatchObject({ status: 'CLOSED', outcome: 'substantiated' });
    expect(await decryptNote(staff, body.motivation, 'motivation')).toBe('Ledger proves it');
    expect(await decryptContent(handle, body.final_message, STAFF)).toMatch(
      /^Thank you for your report\. We looked into it/,
    );
    expect(JSON.stringify(body)).not.toContain('Thank you');
    // One request: the message goes with the closing or not at all.
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('when the pre-filled final message is edited, then the edit is kept when the outcome changes, and the edit is what is sent', async () => {
    const { requests, handle } = await scenario();
    open();
    const actions = await screen.findByRole('region', { name: 'Status' });
    fireEvent.click(within(actions).getByRole('button', { name: 'Close the case' }));
    const form = within(actions).getByRole('form', { name: 'Close the case' });
    const finalMessage = within(form).getByRole('textbox', { name: 'Final message to the reporter' });
    fireEvent.change(within(form).getByLabelText('Outcome'), { target: { value: 'spam' } });
    expect(finalMessage).toHaveValue(
      'We could not find a concern to follow up in this report. We are now closing this case.',
    );
    fireEvent.change(within(form).getByLabelText('Outcome'), { target: { value: 'unsubstantiated' } });
    expect((finalMessage as HTMLTextAreaElement).value).toContain('found no evidence to support your concerns');
    fireEvent.change(finalMessage, { target: { value: 'We found no proof; thank you for speaking up.' } });
    fireEvent.change(within(form).getByLabelText('Outcome'), { target: { value: 'inconclusive' } });
    expect(finalMessage).toHaveValue('We found no proof; thank you for speaking up.');
    fireEvent.change(within(form).getByLabelText('Motivation'), { target: { value: 'Nothing in the books' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Close the case' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'PUT')).toBe(true));
    const body = requests.find((request) => request.method === 'PUT')!.body as {
      outcome: string;
      final_message: string;
    };
    expect(body.outcome).toBe('inconclusive');
    expect(await decryptContent(handle, body.final_message, STAFF)).toBe(
      'We found no proof; thank you for speaking up.',
    );
  });

  it('when feedback was given already, then the final message is optional: emptied, none is sent', async () => {
    const given = {
      due_at: '2027-02-01T10:00:00.000Z',
      done_at: '2026-11-22T10:00:00.000Z',
      state: 'done' as const,
    };
    const { requests } = await scenario({
      clocks: { acknowledgement: given, feedback: given, resolution: { ...given, done_at: null, state: 'due' } },
    });
    open();
    const actions = await screen.findByRole('region', { name: 'Status' });
    fireEvent.click(within(actions).getByRole('button', { name: 'Close the case' }));
    const form = within(actions).getByRole('form', { name: 'Close the case' });
    const finalMessage = within(form).getByRole('textbox', { name: 'Final message to the reporter (optional)' });
    expect(finalMessage).not.toBeRequired();
    expect(within(form).getByText(/The reporter has had feedback already/)).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Outcome'), { target: { value: 'withdrawn' } });
    expect(finalMessage).not.toHaveValue('');
    fireEvent.change(finalMessage, { target: { value: '' } });
    fireEvent.change(within(form).getByLabelText('Motivation'), { target: { value: 'Reporter withdrew' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Close the case' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'PUT')).toBe(true));
    const body = requests.find((request) => request.method === 'PUT')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'CLOSED', outcome: 'withdrawn' });
    expect(body).not.toHaveProperty('final_message');
  });

  it('when a French-speaking handler closes the case, then the final message is pre-filled in French', async () => {
    await scenario();
    open(await initTestI18n<i18n>('fr'));
    const actions = await screen.findByRole('region', { name: 'Statut' });
    fireEvent.click(within(actions).getByRole('button', { name: 'Clore le dossier' }));
    const form = within(actions).getByRole('form', { name: 'Clore le dossier' });
    fireEvent.change(within(form).getByLabelText('Conclusion'), { target: { value: 'referred' } });
    expect(within(form).getByRole('textbox', { name: 'Message final au lanceur d’alerte' })).toHaveValue(
      'Merci pour votre signalement. Nous l’avons transmis à l’organisme compétent pour ce type de question, qui en assurera le suivi. Nous clôturons maintenant ce dossier de notre côté.',
    );
  });
});
