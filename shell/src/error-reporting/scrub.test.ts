import { scrubDeep, scrubText, withoutUnsafeKeys } from './scrub';

describe('scrubText', () => {
  it.each([
    ['http://localhost:8080/disclose/acme-corp/review', 'http://localhost:8080/disclose/:urlIdentifier/review'],
    ['/disclose/acme-corp', '/disclose/:urlIdentifier'],
    ['/disclose/acme-corp/create?ref=mail#top', '/disclose/:urlIdentifier/create'],
    ['/company/password/change?token=eyJhbGciOi.secret', '/company/password/change'],
    ['/company/login/sso?code=abc123&state=xyz', '/company/login/sso'],
    ['/company/login?next=%2Fcompany%2Fincidents', '/company/login'],
    ['/company/acme-corp/success', '/company/:urlIdentifier/success'],
    ['/company/incidents/0b7f3c1e-5d2a-4c8e-9f1b-2a3b4c5d6e7f', '/company/incidents/:uuid'],
    ['GET /api/incident/discloser?url_identifier=acme&retrieval_id=42', 'GET /api/incident/discloser'],
    ['/api/account/company/acme-corp/logo', '/api/account/company/:url_identifier/logo'],
    ['/api/account/company/profile', '/api/account/company/profile'],
    ['/api/account/company/category/0b7f3c1e-5d2a-4c8e-9f1b-2a3b4c5d6e7f', '/api/account/company/category/:uuid'],
  ])('when the text is %s, then it becomes %s', (text, scrubbed) => {
    expect(scrubText(text)).toBe(scrubbed);
  });

  it('when a message mentions a page, then only the page is changed', () => {
    expect(scrubText('Cannot read properties of undefined (reading "title") at /disclose/acme/review?x=1')).toBe(
      'Cannot read properties of undefined (reading "title") at /disclose/:urlIdentifier/review',
    );
    expect(scrubText('Are you sure? Yes')).toBe('Are you sure? Yes');
  });
});

describe('scrubDeep and withoutUnsafeKeys', () => {
  it('when an event holds URLs at any depth, then each is scrubbed and nothing else changes', () => {
    const event = {
      request: { url: 'http://host/disclose/acme/review?code=1' },
      breadcrumbs: [{ category: 'navigation', data: { from: '/disclose/acme', to: '/company/login?next=x' } }],
      level: 'error',
      count: 3,
    };
    expect(scrubDeep(event)).toEqual({
      request: { url: 'http://host/disclose/:urlIdentifier/review' },
      breadcrumbs: [{ category: 'navigation', data: { from: '/disclose/:urlIdentifier', to: '/company/login' } }],
      level: 'error',
      count: 3,
    });
  });

  it('when span attributes or breadcrumb data carry addresses, headers, bodies or queries, then those keys go', () => {
    expect(
      withoutUnsafeKeys({
        'url.full': 'http://host/api/x',
        'url.query': '?a=1',
        'http.query': '?a=1',
        'client.address': '10.0.0.1',
        'server.address': 'host',
        'user_agent.original': 'Chrome',
        'http.request.header.authorization': 'Bearer x',
        request_body_size: 10,
        status_code: 200,
        method: 'GET',
      }),
    ).toEqual({ 'url.full': 'http://host/api/x', status_code: 200, method: 'GET' });
  });
});
