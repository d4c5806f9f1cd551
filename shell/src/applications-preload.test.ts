import { loadRemote, preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import i18n from 'i18next';
import { loadApplicationFor, preloadApplicationFor } from './applications';
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

describe('running the page a sign-in leads to while the derivation is under way', () => {
  it('when the path is a remote’s, then its lifecycles module is loaded (so run), not mounted', async () => {
    const lifecycles = { bootstrap: jest.fn(), mount: jest.fn(), unmount: jest.fn() };
    jest.mocked(loadRemote).mockResolvedValueOnce(lifecycles);
    await loadApplicationFor('/company/incidents/2f1c');
    expect(loadRemote).toHaveBeenCalledWith('mfe_incidents/lifecycles');
    expect(lifecycles.bootstrap).not.toHaveBeenCalled();
    expect(lifecycles.mount).not.toHaveBeenCalled();
  });

  it('when the path is the shell’s own, or the remote cannot be loaded, then nothing is asked and nothing is thrown', async () => {
    await loadApplicationFor('/company/onboarding');
    expect(loadRemote).not.toHaveBeenCalled();
    jest.mocked(loadRemote).mockRejectedValueOnce(new Error('remote down'));
    await expect(loadApplicationFor('/company/settings')).resolves.toBeUndefined();
    expect(loadRemote).toHaveBeenCalledWith('mfe_settings/lifecycles');
  });
});
