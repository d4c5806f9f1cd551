import { webcrypto } from 'node:crypto';
import { URLSearchParams as NodeURLSearchParams } from 'node:url';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { createApiClient } from '@whistle/api-client';
import type { CompanyPublicView, IncidentCreateRequest, IncidentMessage } from '@whistle/contracts';
import { createCompanyCredentials, encryptContent } from '@whistle/crypto';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { discloseRoutes } from './disclose.routes';

const STAFF = { kind: 'message', from: 'staff' } as const;

/**
 * The discloser pages against an in-memory server that checks what a real one checks (auth token,
 * session token) and keeps what it is sent, so the test can show it never sees plaintext.
 */
const incidentUuid = '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d001';
const fraud = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0c001', name: 'Fraud', parent_uuid: null };
const invoices = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0c002', name: 'Fake invoices', parent_uuid: fraud.uuid };
const paris = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0a001', name: 'Paris office' };
const CANARY = 'canary-7f3a';

let english: i18n;
let company: CompanyPublicView;
let created: IncidentCreateRequest | null;
let messages: IncidentMessage[];
const sentBodies: string[] = [];
const realFetch = global.fetch;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function fakeServer(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), 'http://localhost');
  const auth = new Headers(init.headers).get('authorization');
  const method = init.method ?? 'GET';
  if (typeof init.body === 'string') sentBodies.push(init.body);
  const route = `${method} ${url.pathname}`;
  if (route === 'GET /api/account/company/acme') return json(200, company);
  if (route === 'POST /api/incident/') {
    created = JSON.parse(init.body as string);
    return json(201, { uuid: incidentUuid, retrieval_id: 'abc123', display_report_number: 7 });
  }
  if (route === 'GET /api/incident/discloser') {
    const retrievalId = url.searchParams.get('retrieval_id');
    if (!created || retrievalId !== 'abc123' || auth !== `Bearer ${created.discloser_auth_token}`)
      return json(401, { message: 'Invalid secret code' });
    const { credential, aes_salt, aes_iv, discloser_encrypted_passphrase, fields, report_channel, report_anonymously } =
      created;
    // Handed back as sent, as the incident service does (null for a report sent without).
    const discloser_team_keys = created.discloser_team_keys ?? null;
    return json(200, {
      uuid: incidentUuid,
      display_report_number: 7,
      status: { name: 'NEW' },
      report_channel,
      report_anonymously,
      created: '2026-03-04T10:00:00.000Z',
      updated: '2026-03-04T10:00:00.000Z',
      last_activity_at: '2026-03-04T10:00:00.000Z',
      location: paris,
      categories: [fraud, invoices].filter((category) => created!.category_uuids.includes(category.uuid)),
      fields,
      credential,
      aes_salt,
      aes_iv,
      discloser_encrypted_passphrase,
      discloser_team_keys,
      token: 'session-token',
      token_expires_at: '2026-03-04T10:30:00.000Z',
    });
  }
  if (auth !== 'Bearer session-token') return json(401, { message: 'Unauthorized' });
  if (route === `GET /api/incident/${incidentUuid}/message`) return json(200, messages);
  if (route === `GET /api/incident/${incidentUuid}/file`) return json(200, []);
  if (route === 'POST /api/incident/message/') {
    const { content } = JSON.parse(init.body as string);
    const message = {
      uuid: `0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e00${messages.length}`,
      incident_uuid: incidentUuid,
      content,
      created: '2026-03-05T09:30:00.000Z',
      sender: { name: 'Discloser', source: 'DISCLOSER' as const },
    };
    messages.push(message);
    return json(201, message);
  }
  return json(404, { message: 'Not Found' });
}

beforeAll(async () => {
  // jsdom has no SubtleCrypto; the browser's and Node's are the same standard API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  // React Router encodes a posted form with the global URLSearchParams into Node's Request
  // (lent by the test environment), which only takes its own realm's as a form body.
  globalThis.URLSearchParams = NodeURLSearchParams as unknown as typeof URLSearchParams;
  english = await initTestI18n<i18n>('en');
  const { credential } = await createCompanyCredentials();
  company = {
    url_identifier: 'acme',
    name: 'Acme',
    customization: { title: null, description: null, logo_url: null, translations: {} },
    languages: { offered: ['en', 'fr'], default: 'en' },
    public_key: credential.public_key,
    key_version: 1,
    categories: [fraud, invoices],
    locations: [paris],
  };
});
beforeEach(() => {
  created = null;
  messages = [];
  sentBodies.length = 0;
  global.fetch = jest.fn(fakeServer) as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

function renderAt(path: string) {
  const router = createMemoryRouter(discloseRoutes(createApiClient()), { initialEntries: [path] });
  renderWithI18n(<RouterProvider router={router} />, english);
  return router;
}

/** Whether the page asks the browser to confirm closing or reloading the tab. */
const holdsUnload = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

const postCode = (router: ReturnType<typeof renderAt>, code: string) => {
  const formData = new FormData();
  formData.set('uniquePassword', code);
  // URL-encoded, as the landing form posts it.
  return act(() =>
    router.navigate('/disclose/acme/review', {
      formMethod: 'post',
      formEncType: 'application/x-www-form-urlencoded',
      formData,
    }),
  );
};

// The opened incident lives in memory for the whole module: the tests without one come first.
describe('discloser pages', () => {
  it('when review or success is opened without an incident or a code, then the landing page shows', async () => {
    const router = renderAt('/disclose/acme/review');
    await waitFor(() => expect(router.state.location.pathname).toBe('/disclose/acme'));
    await act(() => router.navigate('/disclose/acme/success'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/disclose/acme'));
  });

  it('when a report is filled, confirmed and sent, then only ciphertext leaves, the code shows once and opens the report', async () => {
    const router = renderAt('/disclose/acme/create');
    const submit = await screen.findByRole('button', { name: 'Submit incident' });
    await waitFor(() => expect(submit).toBeEnabled());

    // Anonymous first: the choice opens the form, the identity inputs come only with 'Give my name'.
    const anonymity = screen.getAllByRole('group')[0];
    expect(anonymity).toHaveAccessibleName('How do you want to report?');
    expect(within(anonymity).getByRole('radio', { name: 'Stay anonymous' })).toBeChecked();
    expect(anonymity).toHaveAccessibleDescription(/What can still identify you/);
    expect(document.querySelector('input[name="full_name"]')).toBeNull();
    expect(document.querySelector('input[name="report_channel"]')).toBeNull();
    expect(
      screen.getByRole('group', { name: 'May the people handling your report send you questions?' }),
    ).toBeInTheDocument();
    fireEvent.click(within(anonymity).getByRole('radio', { name: 'Give my name' }));
    expect(screen.getByRole('group', { name: 'May we contact you?' })).toBeInTheDocument();

    // Required inputs are marked before any submit; a failed one focuses the first and lists them by the button.
    expect(screen.getByRole('textbox', { name: 'Description (required)' })).toHaveAttribute('aria-required', 'true');
    expect(screen.getByRole('combobox', { name: 'Location (required)' })).toHaveAttribute('aria-required', 'true');
    expect(screen.getByRole('group', { name: 'What is the incident about? (required)' })).toBeInTheDocument();
    fireEvent.click(submit);
    expect(await screen.findAllByText('This field is required')).toHaveLength(3);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Fraud' })).toHaveFocus());
    const summary = screen.getByRole('region', { name: 'Your report cannot be sent yet. Please complete:' });
    expect(summary.nextElementSibling).toBe(submit);
    expect(
      within(summary)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'What is the incident about? — This field is required',
      'Description — This field is required',
      'Location — This field is required',
    ]);
    fireEvent.click(within(summary).getByRole('link', { name: 'Location — This field is required' }));
    expect(screen.getByRole('combobox', { name: /^Location/ })).toHaveFocus();
    expect(created).toBeNull();

    expect(screen.getAllByRole('radio', { name: 'Yes' }).map((radio) => radio.getAttribute('name'))).toEqual([
      'can_contact',
      'previous_report',
    ]);
    fireEvent.change(document.querySelector('input[name="full_name"]')!, { target: { value: `Ada ${CANARY}` } });
    fireEvent.change(document.querySelector('select[name="phone_number_code"]')!, { target: { value: 'FR:+33' } });
    fireEvent.change(document.querySelector('input[name="phone_number"]')!, { target: { value: '612345678' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fake invoices' }));
    fireEvent.change(document.querySelector('textarea[name="description"]')!, {
      target: { value: `It happened ${CANARY}` },
    });
    fireEvent.change(document.querySelector('select[name="location_uuid"]')!, { target: { value: paris.uuid } });
    fireEvent.change(document.querySelector('input[name="date"]')!, { target: { value: '2026-03-01' } });
    fireEvent.change(document.querySelector('input[name="end_date"]')!, { target: { value: '2026-03-02' } });
    expect(document.querySelector('textarea[name="previous_report_details"]')).toBeNull();
    fireEvent.click(document.querySelector('input[name="previous_report"][value="yes"]')!);
    expect(document.querySelector('textarea[name="previous_report_details"]')).not.toBeNull();
    expect(screen.queryByText('This field is required')).toBeNull();
    expect(screen.queryByRole('region', { name: /cannot be sent yet/ })).toBeNull();

    // A file over 25 MB is refused next to the input; a file being read holds the submit button.
    const files = document.querySelector<HTMLInputElement>('input[name="files"]')!;
    fireEvent.change(files, { target: { files: [new File([new Uint8Array(25_000_001)], 'huge.bin')] } });
    expect(await screen.findByText('Max file size is 25MB')).toBeInTheDocument();
    expect(screen.queryByText('huge.bin')).toBeNull();
    fireEvent.change(files, { target: { files: [new File(['evidence'], 'evidence.txt', { type: 'text/plain' })] } });
    expect(screen.queryByText('Max file size is 25MB')).toBeNull();
    expect(submit).toBeDisabled();
    await waitFor(() => expect(submit).toBeEnabled());
    expect(screen.getByText('8 B')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove evidence.txt' }));
    expect(screen.queryByText('evidence.txt')).toBeNull();

    // Closing the tab, or leaving for another page, asks first; going back to review stays on the form.
    expect(holdsUnload()).toBe(true);
    await act(() => router.navigate('/disclose/acme'));
    const leaving = await screen.findByRole('dialog', { name: 'Are you sure you want submit this incident report?' });
    fireEvent.click(within(leaving).getByRole('button', { name: 'Go back and review' }));
    expect(router.state.location.pathname).toBe('/disclose/acme/create');
    expect(document.querySelector('textarea[name="description"]')).toHaveValue(`It happened ${CANARY}`);

    fireEvent.click(submit);
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want submit this incident report?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Go back and review' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(submit);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit incident' }));

    const shown = await screen.findByRole('group', { name: 'Your secret code' });
    const code = { value: shown.querySelector('.disclose-code__value')!.textContent! };
    expect(screen.getByRole('region', { name: 'What happens after you report' })).toHaveTextContent(/Within 7 days/);
    expect(code.value).toMatch(/^abc123:[0-9a-z]{4}(-[0-9a-z]{4}){6}$/);
    expect(created).toMatchObject({
      url_identifier: 'acme',
      category_uuids: [invoices.uuid],
      location_uuid: paris.uuid,
      report_channel: 'online',
      report_anonymously: false,
    });
    expect(created!.fields.map((field) => field.name).sort()).toEqual([
      'can_contact',
      'date',
      'description',
      'end_date',
      'full_name',
      // The page's language, for the case team's reply (issue #23).
      'language',
      'phone_number',
      'phone_number_code',
      'previous_report',
    ]);
    expect(created!.fields.every((field) => field.value.startsWith('v2.'))).toBe(true);
    expect(sentBodies.join('\n')).not.toContain(CANARY);
    expect(sentBodies.join('\n')).not.toContain(code.value.split(':')[1]);
    const secretCode = code.value;
    expect(holdsUnload()).toBe(true);

    // The receipt names the number the server gave (its fingerprint: submit-report.test.ts, receipt.test.tsx).
    expect(screen.getByText('Report number').nextSibling).toHaveTextContent(/^7$/);

    // Leaving the success page asks first; Finish waits for the checkbox.
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    const saved = await screen.findByRole('dialog', { name: 'Did you save your secret code?' });
    expect(within(saved).getByRole('button', { name: 'Finish' })).toBeDisabled();
    fireEvent.click(within(saved).getByRole('button', { name: 'Cancel' }));
    expect(
      screen.getByRole('group', { name: 'Your secret code' }).querySelector('.disclose-code__value'),
    ).toHaveTextContent(secretCode);
    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('checkbox', { name: 'I have saved my secret code' }),
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Finish' }));
    await screen.findByRole('heading', { level: 1, name: 'Speak up, you’re safe' });
    expect(router.state.location.pathname).toBe('/disclose/acme');
    expect(holdsUnload()).toBe(false);

    // The code is gone from memory: the success page now sends back to the landing page.
    await act(() => router.navigate('/disclose/acme/success'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/disclose/acme'));

    // Typed back loosely: spaces around and between the groups, the passphrase in capitals.
    const [retrievalId, passphrase] = secretCode.split(':');
    messages.push({
      uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e0ff',
      incident_uuid: incidentUuid,
      created: '2026-03-04T11:00:00.000Z',
      content: await encryptContent(created!.credential.public_key, 'Thank you, we are looking into it', STAFF),
      sender: { name: 'Grace Hopper', source: 'STAFF' },
    });
    await postCode(router, ` ${retrievalId.slice(0, 3)} ${retrievalId.slice(3)}:${passphrase.toUpperCase()} `);
    await screen.findByRole('heading', { level: 1, name: 'Report 7' });
    const details = document.querySelector<HTMLElement>('dl.disclose-details')!;
    expect(
      within(details)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual([
      'Name of the employee',
      'Country dial code',
      'Phone number',
      'May we contact you?',
      'Incident',
      'Description',
      'Location',
      'Date',
    ]);
    expect(details).toHaveTextContent(`It happened ${CANARY}`);
    expect(details).toHaveTextContent('Fake invoices');
    expect(details).toHaveTextContent('1 March 2026 - 2 March 2026');
    expect(screen.getByText('Received')).toBeInTheDocument();
    expect(await screen.findByText('Thank you, we are looking into it')).toBeInTheDocument();
    expect(screen.getByText('Message received from Grace Hopper')).toBeInTheDocument();

    // An empty message sends nothing; a message is encrypted, the list reloads, the toast shows.
    const send = screen.getByRole('button', { name: 'Send' });
    fireEvent.click(send);
    expect(messages).toHaveLength(1);
    fireEvent.change(document.querySelector('textarea[name="text"]')!, { target: { value: `Any news? ${CANARY}` } });
    fireEvent.click(send);
    await screen.findByText('Incident details updated');
    expect(messages[1].content).toMatch(/^v2\./);
    expect(document.querySelector('textarea[name="text"]')).toHaveValue('');
    expect(await screen.findByText(`Any news? ${CANARY}`)).toBeInTheDocument();
    expect(screen.getByText('Message sent by Discloser')).toBeInTheDocument();
    expect(sentBodies.join('\n')).not.toContain(CANARY);

    // Once the session token has expired, the page asks for the secret code again.
    global.fetch = jest.fn(async () => json(401, { message: 'Unauthorized' })) as unknown as typeof fetch;
    fireEvent.change(document.querySelector('textarea[name="text"]')!, { target: { value: 'Still there?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('heading', { name: 'Your session has ended' })).toBeInTheDocument();
  });
});
