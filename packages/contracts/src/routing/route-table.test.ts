import { localeNamespaceOwner, matchesPrefix, prefixesOf, resolveWorkload, routes, workloads } from './route-table';

describe('routing table', () => {
  test('when prefixes overlap, then the longest one wins', () => {
    expect(resolveWorkload('/api/account/company/audit_log/')).toBe('audit');
    expect(resolveWorkload('/api/account/company/acme-k7m2qa')).toBe('auth');
    expect(resolveWorkload('/api/incident/file/0b7e0c1e-0000-4000-8000-000000000000')).toBe('file');
    expect(resolveWorkload('/api/incident/0b7e0c1e-0000-4000-8000-000000000000/file')).toBe('incident');
    expect(resolveWorkload('/remotes/mfe-disclose/remoteEntry.js')).toBe('mfe-disclose');
    expect(resolveWorkload('/disclose/acme-k7m2qa')).toBe('shell');
  });

  test('when an API path belongs to no service, then the API still answers it (auth), never the shell', () => {
    expect(resolveWorkload('/api/anything-unknown')).toBe('auth');
    expect(resolveWorkload('/api')).toBe('auth');
    expect(resolveWorkload('/apiary')).toBe('shell');
  });

  test('when a path only shares characters with a prefix, then it does not match it', () => {
    expect(matchesPrefix('/api/accounts', '/api/account')).toBe(false);
    expect(matchesPrefix('/api/account', '/api/account')).toBe(true);
    expect(resolveWorkload('/api/incident/filed')).toBe('incident');
  });

  test('when the table is read, then every route names a known workload and routes are longest first', () => {
    for (const route of routes) expect(workloads[route.workload]).toBeDefined();
    const lengths = routes.map((route) => route.prefix.length);
    expect([...lengths].sort((a, b) => b - a)).toEqual(lengths);
    expect(prefixesOf('file')).toEqual(['/api/incident/file']);
  });

  test('when a translation namespace is asked for, then its frontend answers, and nothing else does', () => {
    expect(localeNamespaceOwner('disclose')).toBe('mfe-disclose');
    expect(localeNamespaceOwner('common')).toBe('shell');
    expect(localeNamespaceOwner('$comment')).toBeUndefined();
    expect(localeNamespaceOwner('constructor')).toBeUndefined();
  });
});
