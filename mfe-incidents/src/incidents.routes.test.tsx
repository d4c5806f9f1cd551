import type { i18n } from 'i18next';
import { screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { incidentsRoutes } from './incidents.routes';

describe('incidents remote routes', () => {
  it.each(['/company/incidents', '/company/incidents/5f0c', '/company/team/add', '/company/reporting'])(
    'when %s is opened before its page exists, then a translated page-not-found shows',
    async (path) => {
      const router = createMemoryRouter(incidentsRoutes, { initialEntries: [path] });
      renderWithI18n(<RouterProvider router={router} />, await initTestI18n<i18n>('fr'));
      expect(await screen.findByRole('heading', { name: 'Page introuvable' })).toBeInTheDocument();
    },
  );
});
