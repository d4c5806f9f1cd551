import type { AppProps } from 'single-spa';
import { REMOTE_APPLICATIONS, isCompanyAppPath, isOwnedBy, isShellPath, withProps } from './applications';

const owner = (pathname: string) =>
  REMOTE_APPLICATIONS.find((application) => isOwnedBy(application, pathname))?.name ??
  (isShellPath(pathname) ? 'shell' : undefined);

describe('application activity', () => {
  it.each([
    ['/disclose/acme', 'mfe_disclose'],
    ['/disclose', 'mfe_disclose'],
    ['/company/incidents', 'mfe_incidents'],
    ['/company/incidents/5f0c', 'mfe_incidents'],
    ['/company/team/add', 'mfe_incidents'],
    ['/company/reporting', 'mfe_incidents'],
    ['/company/settings/account', 'mfe_settings'],
    ['/company/onboarding', 'shell'],
    ['/company/acme/success', 'shell'],
    ['/company/teamwork', 'shell'],
    ['/', 'shell'],
  ])('when the path is %s, then exactly %s is active', (pathname, expected) => {
    expect(owner(pathname)).toBe(expected);
    const active =
      REMOTE_APPLICATIONS.filter((application) => isOwnedBy(application, pathname)).length +
      (isShellPath(pathname) ? 1 : 0);
    expect(active).toBe(1);
  });
});

describe('company app', () => {
  it.each([
    ['/company/incidents', true],
    ['/company/settings/account', true],
    ['/company/team', true],
    ['/company/login', false],
    ['/disclose/acme', false],
    ['/', false],
  ])('when the path is %s, then the company frame and guard are active: %p', (pathname, expected) => {
    expect(isCompanyAppPath(pathname)).toBe(expected);
  });
});

describe('props loaded with an application', () => {
  const props = { name: 'mfe_settings', singleSpa: {}, mountParcel: jest.fn() } as unknown as AppProps;

  it("when a lifecycle is called, then it gets the added props beside single-spa's", async () => {
    const seen: Record<string, unknown[]> = { bootstrap: [], mount: [], unmount: [], update: [] };
    const record = (name: string) => async (given: AppProps) => void seen[name].push(given);
    const session = { staff: jest.fn() };
    const wrapped = withProps(
      {
        bootstrap: [record('bootstrap')],
        mount: record('mount'),
        unmount: record('unmount'),
        update: record('update'),
      },
      { session },
    );

    await (wrapped.bootstrap as Array<(p: AppProps) => Promise<unknown>>)[0](props);
    await (wrapped.mount as (p: AppProps) => Promise<unknown>)(props);
    await (wrapped.unmount as (p: AppProps) => Promise<unknown>)(props);
    await (wrapped.update as (p: AppProps) => Promise<unknown>)(props);

    for (const name of ['bootstrap', 'mount', 'unmount', 'update']) {
      expect(seen[name]).toEqual([{ ...props, session }]);
    }
  });

  it('when the lifecycles have no update, then none is added', () => {
    const noop = async () => undefined;
    expect(withProps({ bootstrap: noop, mount: noop, unmount: noop }, {})).not.toHaveProperty('update');
  });
});
