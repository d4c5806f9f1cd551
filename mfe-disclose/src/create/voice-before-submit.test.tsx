import { webcrypto } from 'node:crypto';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { createApiClient } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { createCompanyKeyPair } from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { installFakeMicrophone, removeFakeMicrophone } from '../../../packages/ui/test/fake-microphone';
import { renderWithI18n } from '../../test/render';
import { discloseRoutes } from '../disclose.routes';

// jsdom has no Worker: the disguise's worker runs in the test's thread.
jest.mock(
  '../../../packages/ui/src/report/voice/voice-disguise-worker',
  () => jest.requireActual('../../../packages/ui/test/fake-microphone').inProcessWorkerModule,
);

/**
 * Issue #26: a voice recorded in the report form but not among its files would not be sent. Submitting is stopped
 * until the discloser adds it or discards it, and the form says so at the recorder and in its error summary.
 */
const fraud = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0c001', name: 'Fraud', parent_uuid: null };
const paris = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0a001', name: 'Paris office' };
const HELD = 'Nothing was sent: this voice message is not among the files yet.';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let english: i18n;
let company: CompanyPublicView;
const realFetch = global.fetch;
/** The reports posted. */
let posted: unknown[];
beforeAll(async () => {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  english = await initTestI18n<i18n>('en');
  company = {
    url_identifier: 'acme',
    name: 'Acme',
    customization: { title: null, description: null, logo_url: null, translations: {} },
    languages: { offered: ['en'], default: 'en' },
    public_key: (await createCompanyKeyPair()).public_key,
    key_version: 1,
    categories: [fraud],
    locations: [paris],
  };
});
beforeEach(() => {
  installFakeMicrophone();
  posted = [];
  global.fetch = jest.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const route = `${init.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    if (route === 'GET /api/account/company/acme') return json(200, company);
    if (route === 'POST /api/incident/') {
      posted.push(JSON.parse(init.body as string));
      return json(201, {
        uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d001',
        retrieval_id: 'abc123',
        display_report_number: 7,
      });
    }
    return json(404, { message: 'Not Found' });
  }) as unknown as typeof fetch;
});
afterEach(removeFakeMicrophone);
afterAll(() => {
  global.fetch = realFetch;
});

/** The report form, filled in, with a disguised voice recorded and heard but not added. */
async function formWithHeldVoice() {
  const router = createMemoryRouter(discloseRoutes(createApiClient()), { initialEntries: ['/disclose/acme/create'] });
  renderWithI18n(<RouterProvider router={router} />, english);
  const submit = await screen.findByRole('button', { name: 'Submit incident' });
  await waitFor(() => expect(submit).toBeEnabled());
  fireEvent.click(screen.getByRole('checkbox', { name: 'Fraud' }));
  fireEvent.change(document.querySelector('textarea[name="description"]')!, { target: { value: 'Said aloud' } });
  fireEvent.change(document.querySelector('select[name="location_uuid"]')!, { target: { value: paris.uuid } });
  const recorder = screen.getByRole('group', { name: 'Voice message' });
  fireEvent.click(within(recorder).getByRole('button', { name: 'Record a voice message' }));
  fireEvent.click(await within(recorder).findByRole('button', { name: 'Stop recording' }));
  await within(recorder).findByRole('button', { name: 'Add to the files' });
  return { submit, recorder, router };
}

it('when the report is submitted with a disguised voice not among its files, then nothing is sent: the recorder and the error summary say so, and Add takes the focus', async () => {
  const { submit, recorder } = await formWithHeldVoice();
  fireEvent.click(submit);
  const add = within(recorder).getByRole('button', { name: 'Add to the files' });
  expect(within(recorder).getByText(/^Nothing was sent/).textContent).toContain(HELD);
  expect(add).toHaveFocus();
  const summary = screen.getByRole('region', { name: 'Your report cannot be sent yet. Please complete:' });
  const entry = within(summary).getByRole('link', { name: 'Voice message — Add it to the files or discard it' });
  expect(entry.getAttribute('href')).toBe(`#${add.id}`);
  expect(screen.queryByRole('dialog')).toBeNull();
  await act(async () => undefined);
  expect(posted).toEqual([]);

  // Added: the report can go, with the voice message among its files.
  fireEvent.click(add);
  expect(screen.queryByText(/^Nothing was sent/)).toBeNull();
  expect(screen.queryByRole('region', { name: /cannot be sent yet/ })).toBeNull();
  expect(screen.getByText(/^voice-message-[\d-]+\.wav$/, { selector: '.wh-files__name' })).toBeTruthy();
  fireEvent.click(submit);
  expect(await screen.findByRole('dialog')).toBeTruthy();
});

it('when the voice held is discarded, then the report is sent without it', async () => {
  const { submit, recorder } = await formWithHeldVoice();
  fireEvent.click(submit);
  expect(within(recorder).getByText(/^Nothing was sent/)).toBeTruthy();
  fireEvent.click(within(recorder).getByRole('button', { name: 'Discard' }));
  fireEvent.click(submit);
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit incident' }));
  await screen.findByRole('group', { name: 'Your secret code' }, { timeout: 10_000 });
  expect(posted).toHaveLength(1);
  expect(document.querySelector('.wh-files__name')).toBeNull();
});

it('when the discloser leaves the form and chooses to submit, then a voice held stops that too', async () => {
  const { recorder, router } = await formWithHeldVoice();
  // Leaving for the landing page asks to submit first (spec §4): the voice is held there too.
  await act(() => router.navigate('/disclose/acme'));
  const leaving = await screen.findByRole('dialog', { name: 'Are you sure you want submit this incident report?' });
  fireEvent.click(within(leaving).getByRole('button', { name: 'Submit incident' }));
  expect(within(recorder).getByText(/^Nothing was sent/).textContent).toContain(HELD);
  expect(within(recorder).getByRole('button', { name: 'Add to the files' })).toHaveFocus();
  expect(router.state.location.pathname).toBe('/disclose/acme/create');
  await act(async () => undefined);
  expect(posted).toEqual([]);
});
