import type { i18n } from 'i18next';
import { screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { initTestI18n } from '../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { settingsRoutes } from './settings.routes';

describe('settings remote routes', () => {
  it.each(['/company/settings', '/company/settings/account'])(
    'when %s is opened before its page exists, then a translated page-not-found shows',
    async (path) => {
      const router = createMemoryRouter(settingsRoutes, { initialEntries: [path] });
      renderWithI18n(<RouterProvider router={router} />, await initTestI18n<i18n>('en'));
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
      expect(screen.getByText('This settings page does not exist.')).toBeInTheDocument();
    },
  );
});
