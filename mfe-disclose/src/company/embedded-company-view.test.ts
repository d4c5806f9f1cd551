import { takeEmbeddedCompanyView } from './embedded-company-view';

const view = { name: 'Acme', url_identifier: 'acme', public_key: 'k', customization: {} };

function embed(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = 'whistle-company-view';
  element.textContent = text;
  document.body.append(element);
}

afterEach(() => document.getElementById('whistle-company-view')?.remove());

test('the view the page arrived with is given once, for its own company only', () => {
  embed(JSON.stringify(view));
  expect(takeEmbeddedCompanyView('acme')).toEqual(view);
  expect(takeEmbeddedCompanyView('acme')).toBeUndefined();
  embed(JSON.stringify(view));
  expect(takeEmbeddedCompanyView('other')).toBeUndefined();
  expect(document.getElementById('whistle-company-view')).toBeNull();
});

test('a block that is not JSON is ignored: the page asks the API', () => {
  embed('{not json');
  expect(takeEmbeddedCompanyView('acme')).toBeUndefined();
});
