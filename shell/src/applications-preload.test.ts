import { preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import i18n from 'i18next';
import { preloadApplicationFor } from './applications';
import { registerRemotesFromManifest } from './remotes/remote-manifest';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  preloadRemote: jest.fn(async () => []),
  registerRemotes: jest.fn(),
}));

let fetchMock: jest.SpyInstance;
beforeEach(() => {
  jest.clearAllMocks();
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => fetchMock.mockRestore());

describe('preloading the page a sign-in leads to', () => {
  it('when the path is a remote’s, then its translations and, once the remotes are registered, its lifecycles are preloaded', async () => {
    const loadNamespaces = jest.spyOn(i18n, 'loadNamespaces').mockResolvedValue(undefined);
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValue(new Promise<Response>((resolve) => (answer = resolve)));
    void registerRemotesFromManifest();
    const preloading = preloadApplicationFor('/company/settings/account');
    await Promise.resolve();
    // Not before the manifest says where the remote is.
    expect(preloadRemote).not.toHaveBeenCalled();
    answer(new Response(JSON.stringify({ mfe_settings: '/remotes/mfe-settings/mf-manifest.json' })));
    await preloading;
    expect(registerRemotes).toHaveBeenCalled();
    expect(preloadRemote).toHaveBeenCalledWith([{ nameOrAlias: 'mfe_settings', exposes: ['./lifecycles'] }]);
    expect(loadNamespaces).toHaveBeenCalledWith('settings');
  });

  it('when the path is the shell’s own, or the preload fails, then nothing is asked and nothing is thrown', async () => {
    await preloadApplicationFor('/company/onboarding');
    expect(preloadRemote).not.toHaveBeenCalled();
    jest.mocked(preloadRemote).mockImplementationOnce(() => {
      throw new Error('no federation instance');
    });
    await expect(preloadApplicationFor('/company/incidents')).resolves.toBeUndefined();
  });
});
