import { webcrypto } from 'node:crypto';
import { URLSearchParams as NodeURLSearchParams } from 'node:url';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { CompanyPublicView } from '@whistle/contracts';
import { createCompanyCredentials } from '@whistle/crypto';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { DiscloseApp, leaveEmptyPage } from './disclose.app';
import { forgetSubmission, holdSubmission } from './session/secret-code.store';

/**
 * The discloser area as the shell mounts it, in the browser's history: a first visit of the landing page
 * does without React Router, which comes when the discloser heads for another page.
 */
const mockRouterLoaded = jest.fn();
jest.mock('react-router', () => {
  mockRouterLoaded();
  return jest.requireActual('react-router');
});

let english: i18n;
let company: CompanyPublicView;
const realFetch = global.fetch;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const companyAnswer = jest.fn(async () => json(200, company));
const requests: string[] = [];

beforeAll(async () => {
  // jsdom has no SubtleCrypto; React Router posts forms with the test realm's URLSearchParams.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  globalThis.URLSearchParams = NodeURLSearchParams as unknown as typeof URLSearchParams;
  english = await initTestI18n<i18n>('en');
  const { credential } = await createCompanyCredentials();
  const paris = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0a001', name: 'Paris office' };
  const fraud = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0c001', name: 'Fraud', parent_uuid: null };
  company = {
    url_identifier: 'acme',
    name: 'Acme',
    customization: { title: null, description: null, logo_url: null, translations: {} },
    languages: { offered: ['en', 'fr'], default: 'en' },
    public_key: credential.public_key,
    key_version: 1,
    categories: [fraud],
    locations: [paris],
  };
});
beforeEach(() => {
  requests.length = 0;
  global.fetch = jest.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    requests.push(`${init.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname === '/api/account/company/acme') return companyAnswer();
    // Retrieval with a code this server does not know.
    if (url.pathname === '/api/incident/discloser') return json(401, { message: 'Invalid secret code' });
    return json(404, { message: 'Not Found' });
  }) as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

function openAt(path: string) {
  window.history.replaceState(null, '', path);
  return renderWithI18n(<DiscloseApp />, english);
}

// React Router, once loaded, stays in the module registry: the tests without it come first.
describe('discloser area', () => {
  it('when the landing page is opened, then it shows without React Router', async () => {
    openAt('/disclose/acme');
    expect(await screen.findByRole('heading', { level: 1, name: 'Speak up, you’re safe' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Report an incident' })).toHaveAttribute('href', '/disclose/acme/create');
    fireEvent.click(screen.getByRole('button', { name: 'Check incident status' }));
    fireEvent.click(screen.getByRole('button', { name: 'Check incident status' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/disclose/acme');
    expect(mockRouterLoaded).not.toHaveBeenCalled();
  });

  it('when the company is unknown, then the landing page says so, still without React Router', async () => {
    companyAnswer.mockResolvedValueOnce(json(404, { message: 'Not Found' }));
    openAt('/disclose/acme');
    expect(await screen.findByRole('heading', { name: 'Company not found' })).toBeInTheDocument();
    expect(mockRouterLoaded).not.toHaveBeenCalled();
  });

  it.each(['success', 'review'])(
    'when the %s page is opened by its address, then it is the landing page from the start, without React Router',
    async (page) => {
      window.history.replaceState(null, '', `/disclose/acme/${page}`);
      leaveEmptyPage();
      expect(window.location.pathname).toBe('/disclose/acme');
      renderWithI18n(<DiscloseApp />, english);
      expect(await screen.findByRole('heading', { level: 1, name: 'Speak up, you’re safe' })).toBeInTheDocument();
      expect(mockRouterLoaded).not.toHaveBeenCalled();
    },
  );

  it('when the success page holds a report just sent, then it stays where it is', () => {
    holdSubmission({
      secretCode: 'code',
      failedFiles: [],
      receipt: { reportNumber: 1, sentAt: '2026-12-07T14:00:00Z', fingerprint: 'ab' },
    });
    try {
      window.history.replaceState(null, '', '/disclose/acme/success');
      leaveEmptyPage();
      expect(window.location.pathname).toBe('/disclose/acme/success');
    } finally {
      forgetSubmission();
    }
  });

  it('when Report an incident is clicked, then the router takes over and shows the create page without asking for the company again', async () => {
    openAt('/disclose/acme');
    fireEvent.click(await screen.findByRole('link', { name: 'Report an incident' }));
    // The first import of the create page and its encryption takes a while in jsdom.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Report an incident' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(window.location.pathname).toBe('/disclose/acme/create');
    expect(mockRouterLoaded).toHaveBeenCalled();
    expect(requests.filter((request) => request === 'GET /api/account/company/acme')).toHaveLength(1);
  });

  it('when a wrong secret code is sent from the landing page, then the router posts it and the form answers inline, keeping it', async () => {
    openAt('/disclose/acme');
    fireEvent.click(await screen.findByRole('button', { name: 'Check incident status' }));
    const wrong = 'abc123:aaaa-bbbb-cccc-dddd-eeee-ffff-gggg';
    fireEvent.change(screen.getByLabelText('Your secret code'), { target: { value: wrong } });
    fireEvent.click(screen.getByRole('button', { name: 'Check incident status' }));
    await waitFor(() => expect(requests).toContain('GET /api/incident/discloser'), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/^Invalid secret code/), {
      timeout: 10_000,
    });
    // The router's landing page took over from the one without it: the form is still open, with the code.
    expect(mockRouterLoaded).toHaveBeenCalled();
    expect(screen.getByLabelText('Your secret code')).toHaveValue(wrong);
    expect(window.location.pathname).toBe('/disclose/acme');
  });

  it('when the browser goes to another page of the area from a landing page without router, then the router shows it', async () => {
    openAt('/disclose/acme');
    await screen.findByRole('heading', { level: 1, name: 'Speak up, you’re safe' });
    act(() => {
      window.history.pushState(null, '', '/disclose/acme/nowhere');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('when another page of the area is opened first, then the router shows it', async () => {
    openAt('/disclose/acme/create');
    expect(await screen.findByRole('heading', { level: 1, name: 'Report an incident' })).toBeInTheDocument();
  });
});
