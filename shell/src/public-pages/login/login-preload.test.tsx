import { fireEvent, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { navigateToUrl } from 'single-spa';
import { loadApplicationFor, preloadApplicationFor } from '../../applications';
import { passwordSignIn, preloadPasswordKeys } from '../keys/password-keys';
import { publicRoutes } from '../public-pages.routes';

jest.mock('single-spa', () => ({ navigateToUrl: jest.fn() }));
jest.mock('../../applications', () => ({
  ...jest.requireActual('../../applications'),
  preloadApplicationFor: jest.fn(async () => undefined),
  loadApplicationFor: jest.fn(async () => undefined),
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

it('when the form is submitted, then the page it leads to is run while the derivation is under way, and a wrong password is still refused with nothing mounted', async () => {
  const fetchMock = jest
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(Response.json({ message: 'Invalid email or password' }, { status: 401 }));
  const unlockKey = {} as CryptoKey;
  jest.mocked(passwordSignIn).mockImplementation(async (_api, _email, _password, meanwhile) => {
    // Not at the click: the derivation's start comes first, so the evaluation cannot delay it.
    expect(loadApplicationFor).not.toHaveBeenCalled();
    meanwhile?.();
    return { body: { username: 'ada@acme.example', password: 'v2.secret' }, unlockKey };
  });
  try {
    const i18nInstance = await initTestI18n<i18n>('en');
    renderWithI18n(
      <RouterProvider
        router={createMemoryRouter(publicRoutes, { initialEntries: ['/company/login?next=%2Fcompany%2Fteam'] })}
      />,
      i18nInstance,
    );
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@acme.example' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(loadApplicationFor).toHaveBeenCalledWith('/company/team');
    expect(navigateToUrl).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBeNull();
  } finally {
    fetchMock.mockRestore();
  }
});
