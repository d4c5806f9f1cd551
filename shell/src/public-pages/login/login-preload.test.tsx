import { screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { preloadApplicationFor } from '../../applications';
import { passwordSignIn, preloadPasswordKeys } from '../keys/password-keys';
import { publicRoutes } from '../public-pages.routes';

jest.mock('single-spa', () => ({ navigateToUrl: jest.fn() }));
jest.mock('../../applications', () => ({
  ...jest.requireActual('../../applications'),
  preloadApplicationFor: jest.fn(async () => undefined),
}));
jest.mock('../keys/password-keys', () => ({
  ...jest.requireActual('../keys/password-keys'),
  passwordSignIn: jest.fn(),
  preloadPasswordKeys: jest.fn(),
}));
beforeEach(() => jest.clearAllMocks());

it.each([
  ['/company/login', '/company/incidents'],
  ['/company/login?next=%2Fcompany%2Fsettings%2Faccount%3Ftab%3D1', '/company/settings/account'],
])(
  'when %s opens, then the derivation code and the page it leads to (%s) start loading before anyone clicks',
  async (path, next) => {
    const i18nInstance = await initTestI18n<i18n>('en');
    renderWithI18n(
      <RouterProvider router={createMemoryRouter(publicRoutes, { initialEntries: [path] })} />,
      i18nInstance,
    );
    await screen.findByRole('button', { name: 'Log in' });
    await waitFor(() => expect(preloadPasswordKeys).toHaveBeenCalledTimes(1));
    expect(preloadApplicationFor).toHaveBeenCalledWith(next);
    expect(passwordSignIn).not.toHaveBeenCalled();
  },
);
