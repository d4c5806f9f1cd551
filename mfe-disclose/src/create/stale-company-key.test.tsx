import { webcrypto } from 'node:crypto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { createApiClient } from '@whistle/api-client';
import type { CompanyPublicView, IncidentCreateRequest } from '@whistle/contracts';
import {
  createCompanyKeyPair,
  type CompanySecret,
  DecryptionError,
  importCompanyPrivateKey,
  openIncidentAsDiscloser,
  parseSecretCode,
  unwrapWithPrivateKey,
} from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { discloseRoutes } from '../disclose.routes';

/**
 * A company key rotation that ends while the discloser writes: the server refuses the report wrapped to the key it
 * retired, and the page makes it again for the current key without the discloser doing anything.
 */
const fraud = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0c001', name: 'Fraud', parent_uuid: null };
const paris = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0a001', name: 'Paris office' };
const STALE = 'The company key has changed since this page was loaded';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let english: i18n;
const realFetch = global.fetch;
afterAll(() => {
  global.fetch = realFetch;
});
beforeAll(async () => {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  english = await initTestI18n<i18n>('en');
});

it('when the company key was renewed while the form was open, then the report is encrypted again to the new key and its code opens it', async () => {
  const [first, second] = [await createCompanyKeyPair(), await createCompanyKeyPair()];
  const view = (key: { public_key: string }, version: number): CompanyPublicView => ({
    url_identifier: 'acme',
    name: 'Acme',
    customization: { title: null, description: null, logo_url: null, translations: {} },
    languages: { offered: ['en', 'fr'], default: 'en' },
    public_key: key.public_key,
    key_version: version,
    categories: [fraud],
    locations: [paris],
  });
  let current = view(first, 1);
  const sent: IncidentCreateRequest[] = [];
  global.fetch = jest.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const route = `${init.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    if (route === 'GET /api/account/company/acme') return json(200, current);
    if (route === 'POST /api/incident/') {
      const body = JSON.parse(init.body as string) as IncidentCreateRequest;
      sent.push(body);
      if (body.company_key_version !== current.key_version)
        return json(409, { message: STALE, errors: { company_key_version: [STALE] } });
      return json(201, {
        uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0d001',
        retrieval_id: 'abc123',
        display_report_number: 7,
      });
    }
    return json(404, { message: 'Not Found' });
  }) as unknown as typeof fetch;

  const router = createMemoryRouter(discloseRoutes(createApiClient()), { initialEntries: ['/disclose/acme/create'] });
  renderWithI18n(<RouterProvider router={router} />, english);
  const submit = await screen.findByRole('button', { name: 'Submit incident' });
  await waitFor(() => expect(submit).toBeEnabled());
  fireEvent.click(screen.getByRole('checkbox', { name: 'Fraud' }));
  fireEvent.change(document.querySelector('textarea[name="description"]')!, { target: { value: 'It happened' } });
  fireEvent.change(document.querySelector('select[name="location_uuid"]')!, { target: { value: paris.uuid } });
  // The rotation ends now: the old key is gone.
  current = view(second, 2);
  fireEvent.click(submit);
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit incident' }));

  // Two reports encrypted one after the other: more than the default second on a busy machine.
  const shown = await screen.findByRole('group', { name: 'Your secret code' }, { timeout: 10_000 });
  expect(sent.map((body) => body.company_key_version)).toEqual([1, 2]);
  const [refused, taken] = sent as [IncidentCreateRequest, IncidentCreateRequest];
  const opens = (secret: CompanySecret, wrapped: string) =>
    importCompanyPrivateKey(secret)
      .then((key) => unwrapWithPrivateKey(key, wrapped, 'incident-passphrase'))
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof DecryptionError) return false;
          throw error;
        },
      );
  expect(await opens(first.secret, refused.company_encrypted_passphrase!)).toBe(true);
  expect(await opens(second.secret, taken.company_encrypted_passphrase!)).toBe(true);
  expect(await opens(first.secret, taken.company_encrypted_passphrase!)).toBe(false);
  // A new incident key and code: the one shown opens the report that was taken.
  expect(taken.credential.public_key).not.toBe(refused.credential.public_key);
  const code = parseSecretCode(shown.querySelector('.disclose-code__value')!.textContent!);
  const opened = await openIncidentAsDiscloser({ ...taken, discloserPassphrase: code.passphrase });
  expect(opened.publicKey).toBe(taken.credential.public_key);
});
