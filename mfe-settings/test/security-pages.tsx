import type { i18n } from 'i18next';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { createApiClient, type StaffSession, type StaffState } from '@whistle/api-client';
import type { Role } from '@whistle/contracts';
import { StaffSessionContext } from '@whistle/ui/staff';
import { settingsRoutes } from '../src/settings.routes';
import { renderWithI18n } from './render';
import { fakeKeyring } from './fake-keyring';

/** The company, staff and session of the sign-in security pages' tests (single sign-on, MFA policy). */
export const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const member = (uuid: string, full_name: string, roles: Role[], mfa: boolean) => ({
  uuid,
  email: `${full_name.split(' ')[0].toLowerCase()}@acme.example`,
  full_name,
  roles,
  mfa_auth_factor_id: mfa ? 'factor' : null,
  last_sign_in_at: null,
  invitation_pending: false,
});
export const ada = member('00000000-0000-4000-8000-000000000001', 'Ada Admin', ['ADMIN'], true);

export function companyState(roles: Role[] = ['ADMIN'], mfaRequired = false): StaffState {
  return {
    profile: { ...ada, roles },
    company: {
      uuid: '00000000-0000-4000-8000-0000000000c1',
      name: 'Acme',
      country: 'DE',
      url_identifier: 'acme',
      public_key: 'pk',
      logo: null,
      title: null,
      description: null,
      translations: {},
      languages: { offered: ['en', 'fr'], default: 'en' },
      mfa_required: mfaRequired,
      sso_enabled: false,
      settings: { resolution_deadline_days: 14, notifications: {} },
      user_profiles: [
        ada,
        member('00000000-0000-4000-8000-000000000002', 'Rita Reviewer', ['REVIEWER'], false),
        member('00000000-0000-4000-8000-000000000003', 'Hank Handler', ['HANDLER'], false),
      ],
      categories: [],
      locations: [],
    },
  } as StaffState;
}

/** The MFA and SSO tests leave report access aside: by default the admin does not hold the company key here. */
export function fakeSession(state = companyState(), keyring = fakeKeyring({ state: 'missing' })) {
  const session = {
    api: createApiClient({ getToken: () => 'staff-token' }),
    staff: async () => state,
    reloadStaff: jest.fn(async () => state),
    subscribe: () => () => undefined,
    replaceToken: jest.fn(async () => undefined),
    keyring,
  };
  return session as StaffSession & typeof session;
}

/** A settings page under its routes, with the staff session. */
export function openSettings(path: string, instance: i18n, session = fakeSession()) {
  const router = createMemoryRouter(settingsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    instance,
  );
  return { router, session };
}

/** The `index`th request the page sent. */
export const sentRequest = (fetchMock: jest.SpyInstance, index: number) => {
  const [url, init] = fetchMock.mock.calls[index] as [string, RequestInit];
  return { url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(init.body as string) : undefined };
};
