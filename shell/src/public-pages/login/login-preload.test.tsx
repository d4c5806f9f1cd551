import { screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { passwordSignIn, preloadPasswordKeys } from '../keys/password-keys';
import { publicRoutes } from '../public-pages.routes';

jest.mock('single-spa', () => ({ navigateToUrl: jest.fn() }));
jest.mock('../keys/password-keys', () => ({
  ...jest.requireActual('../keys/password-keys'),
  passwordSignIn: jest.fn(),
  preloadPasswordKeys: jest.fn(),
}));

it('when the login page opens, then the derivation code starts loading before anyone clicks', async () => {
  const i18nInstance = await initTestI18n<i18n>('en');
  renderWithI18n(
    <RouterProvider router={createMemoryRouter(publicRoutes, { initialEntries: ['/company/login'] })} />,
    i18nInstance,
  );
  await screen.findByRole('button', { name: 'Log in' });
  expect(preloadPasswordKeys).toHaveBeenCalledTimes(1);
  expect(passwordSignIn).not.toHaveBeenCalled();
});
