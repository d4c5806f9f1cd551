import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import { fallbackPlugin } from './fallback.plugin';

type ErrorLoadRemote = NonNullable<ReturnType<typeof fallbackPlugin>['errorLoadRemote']>;
const failure = (lifecycle: Parameters<ErrorLoadRemote>[0]['lifecycle']): Parameters<ErrorLoadRemote>[0] => ({
  id: 'mfe_disclose/lifecycles',
  error: new Error('ScriptNetworkError'),
  from: 'runtime',
  lifecycle,
  origin: {} as ModuleFederation,
});

describe('fallback runtime plugin', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('when a remote module finally fails to load, then single-spa lifecycles stand in for it', async () => {
    const lifecycles = await fallbackPlugin().errorLoadRemote!(failure('onLoad'));
    expect(lifecycles).toMatchObject({
      bootstrap: expect.any(Function),
      mount: expect.any(Function),
      unmount: expect.any(Function),
    });
  });

  it('when an earlier stage fails, then the plugin leaves it to the runtime', async () => {
    await expect(fallbackPlugin().errorLoadRemote!(failure('afterResolve'))).resolves.toBeUndefined();
  });
});
