import { webcrypto } from 'node:crypto';
import { URLSearchParams as NodeURLSearchParams } from 'node:url';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { createApiClient } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { discloseRoutes } from '../disclose.routes';

/** The landing page's status form with a code that opens nothing: answered there, never on a page of its own. */
const company: CompanyPublicView = {
  url_identifier: 'acme',
  name: 'Acme',
  customization: { title: null, description: null, logo_url: null, translations: {} },
  languages: { offered: ['en', 'fr'], default: 'en' },
  public_key: 'v1.key',
  key_version: 1,
  categories: [],
  locations: [],
};

let english: i18n;
beforeAll(async () => {
  // jsdom has no SubtleCrypto; React Router posts forms with the test realm's URLSearchParams.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  globalThis.URLSearchParams = NodeURLSearchParams as unknown as typeof URLSearchParams;
  english = await initTestI18n<i18n>('en');
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const realFetch = global.fetch;
beforeEach(() => {
  global.fetch = jest.fn(async (input: string | URL | Request) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/account/company/acme') return json(200, company);
    // Retrieval with a code this server does not know.
    return json(401, { message: 'Invalid secret code' });
  }) as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});
const api = createApiClient();

function renderAt(path: string) {
  const router = createMemoryRouter(discloseRoutes(api), { initialEntries: [path] });
  renderWithI18n(<RouterProvider router={router} />, english);
  return router;
}

describe('checking a status with a wrong code', () => {
  it('when a wrong or malformed code is sent from the status form, then the form stays open with it and says why', async () => {
    const router = renderAt('/disclose/acme');
    fireEvent.click(await screen.findByRole('button', { name: 'Check incident status' }));
    const wrong = 'abc123:aaaa-bbbb-cccc-dddd-eeee-ffff-gggg';
    fireEvent.change(screen.getByLabelText('Your secret code'), { target: { value: wrong } });
    fireEvent.click(screen.getByRole('button', { name: 'Check incident status' }));
    const refusal = /^Invalid secret code: no report matches it/;
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(refusal));
    expect(screen.getByLabelText('Your secret code')).toHaveValue(wrong);
    expect(screen.getByLabelText('Your secret code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Your secret code')).toHaveAccessibleDescription(refusal);
    expect(router.state.location.pathname).toBe('/disclose/acme');

    // Malformed (no colon): the same answer; editing the code takes the message away.
    fireEvent.change(screen.getByLabelText('Your secret code'), { target: { value: 'no colon here' } });
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
    fireEvent.click(screen.getByRole('button', { name: 'Check incident status' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(refusal));
    expect(screen.getByLabelText('Your secret code')).toHaveValue('no colon here');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Your secret code')).toBeNull();
  });
});
