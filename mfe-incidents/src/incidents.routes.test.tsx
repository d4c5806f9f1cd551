import type { i18n } from 'i18next';
import { screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffSession, StaffState } from '@whistle/api-client';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { incidentsRoutes } from './incidents.routes';

const state = {
  profile: {
    uuid: 'u',
    email: 'ada@acme.example',
    full_name: 'Ada Lovelace',
    roles: ['REVIEWER'],
    mfa_auth_factor_id: null,
  },
  company: { url_identifier: 'acme-corporation' },
} as unknown as StaffState;
const session = { staff: async () => state, subscribe: () => () => undefined } as unknown as StaffSession;

function open(path: string, instance: i18n) {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    instance,
  );
}

describe('incidents remote routes', () => {
  it('when the incident list opens, then it explains where reports appear and gives the company’s disclosure link', async () => {
    open('/company/incidents', await initTestI18n<i18n>('en'));
    expect(await screen.findByRole('heading', { name: 'Incidents', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No incident reports yet' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Employees’ disclosure link')).toHaveValue(
      `${window.location.origin}/disclose/acme-corporation`,
    );
  });

  it.each(['/company/incidents/5f0c', '/company/team/add', '/company/reporting'])(
    'when %s is opened before its page exists, then a translated page-not-found shows',
    async (path) => {
      open(path, await initTestI18n<i18n>('fr'));
      expect(await screen.findByRole('heading', { name: 'Page introuvable' })).toBeInTheDocument();
    },
  );
});
