import { REMOTE_APPLICATIONS, isCompanyAppPath, isOwnedBy, isShellPath } from './applications';

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
