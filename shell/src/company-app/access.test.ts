import { accessRedirect, loginPathFor } from './access';

describe('company app access', () => {
  it.each([
    ['/company/incidents', undefined],
    ['/company/incidents/5f0c', undefined],
    ['/company/settings/account', undefined],
    ['/company/settings/account/mfa', undefined],
    ['/company/settings', '/company/settings/account'],
    ['/company/settings/company', '/company/settings/account'],
    ['/company/settings/categories/add', '/company/settings/account'],
    ['/company/settings/audit-log', '/company/settings/account'],
    ['/company/settings/sso', '/company/settings/account'],
    ['/company/settings/security', '/company/settings/account'],
    ['/company/team', '/company/incidents'],
    ['/company/reporting', '/company/incidents'],
  ])('when a reviewer opens %s, then they go to %p', (path, target) => {
    expect(accessRedirect(path, ['REVIEWER'])).toBe(target);
    expect(accessRedirect(path, ['HANDLER'])).toBe(target);
  });

  it.each([
    '/company/team',
    '/company/reporting',
    '/company/settings/company',
    '/company/settings/audit-log',
    '/company/settings/sso',
    '/company/settings/security',
    '/company/incidents',
  ])('when an admin opens %s, then they stay', (path) => expect(accessRedirect(path, ['ADMIN'])).toBeUndefined());

  it('when the guard sends someone to login, then next carries the path and query', () => {
    expect(loginPathFor({ pathname: '/company/settings/account', search: '?x=1' })).toBe(
      '/company/login?next=%2Fcompany%2Fsettings%2Faccount%3Fx%3D1',
    );
  });
});
