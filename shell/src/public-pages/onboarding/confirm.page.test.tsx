import { screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { publicRoutes } from '../public-pages.routes';

let i18nInstance: i18n;
let fetchMock: jest.SpyInstance;

beforeAll(async () => {
  i18nInstance = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => {
  fetchMock.mockRestore();
  window.history.replaceState(null, '', '/');
});

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Opens the confirmation page as the mailed link does: the token in the fragment of the address. */
function openLink(fragment: string) {
  window.history.replaceState(null, '', `/company/onboarding/confirm${fragment}`);
  const router = createMemoryRouter(publicRoutes, { initialEntries: ['/company/onboarding/confirm'] });
  renderWithI18n(<RouterProvider router={router} />, i18nInstance);
  return router;
}

describe('company confirmation page', () => {
  it('when the link is followed, then its token is sent once in a body, wiped from the address, and the active company’s success page follows', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/account/company/confirmation'
        ? answer(200, { url_identifier: 'acme' })
        : answer(200, { url_identifier: 'acme', name: 'Acme', categories: [], locations: [] }),
    );
    const router = openLink('#token=the-secret-token');
    await waitFor(() => expect(router.state.location.pathname).toBe('/company/acme/success'));
    const confirmations = (fetchMock.mock.calls as [string, RequestInit][]).filter(
      ([url]) => url === '/api/account/company/confirmation',
    );
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]![1].method).toBe('POST');
    expect(JSON.parse(confirmations[0]![1].body as string)).toEqual({ token: 'the-secret-token' });
    expect(window.location.hash).toBe('');
    expect(
      await screen.findByText('Your e-mail address is confirmed: your company’s account is active.'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('img')).toHaveAttribute('src', '/api/account/company/acme/qrcode');
  });

  it.each([
    [
      'an expired or used link (401)',
      '#token=old',
      answer(401, { message: 'Invalid or expired link' }),
      /expired or was already used/,
    ],
    ['no token at all', '', undefined, /expired or was already used/],
    [
      'a domain taken meanwhile (exists)',
      '#token=late',
      answer(400, { message: 'Bad Request', exists: true }),
      /already exists/,
    ],
    [
      'registration closed by the operator (403)',
      '#token=t',
      answer(403, { message: 'closed' }),
      /registration is closed/,
    ],
  ])(
    'when it meets %s, then it says so and offers to register again or log in',
    async (_case, fragment, reply, message) => {
      if (reply) fetchMock.mockResolvedValue(reply);
      openLink(fragment);
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(screen.getByRole('link', { name: 'Register again' })).toHaveAttribute('href', '/company/onboarding');
      if (!reply) expect(fetchMock).not.toHaveBeenCalled();
    },
  );
});
