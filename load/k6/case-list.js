// k6 for a cluster: staff work through the case list (GET /api/incident/ with the list's sorts and filters, as the
// incidents page asks for it), the staff side of the discloser journey.
//   k6 run -e SHAPE=load -e BASE_URL=https://whistle.example -e USERNAME=handler@acme.example -e AUTH_SECRET=… case-list.js
// or with a staff token taken beforehand (an account with a second factor cannot sign in here): -e TOKEN=eyJ…
// Each virtual user is one staff member's browser: a page of the list, a few seconds reading it, the next.
import http from 'k6/http';
import { check, fail, sleep } from 'k6';
import { shape } from './shapes.js';

export const options = {
  ...shape(__ENV.SHAPE, { steady: 30, peak: 150 }),
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:case_list}': ['p(95)<250', 'p(99)<500'],
    'http_req_duration{name:case_list_filtered}': ['p(95)<300', 'p(99)<600'],
  },
};

const base = __ENV.BASE_URL || 'http://localhost:8080';

/** One sign-in for the run: every virtual user lists as the same staff member. */
export function setup() {
  if (__ENV.TOKEN) return { token: __ENV.TOKEN };
  const signedIn = http.post(
    `${base}/api/account/token`,
    // The password never travels: AUTH_SECRET is what the login page derives from it (Argon2id, which k6 has no
    // WebAssembly for): `node load/bench/auth-secret.mjs BASE_URL USERNAME` prints it.
    JSON.stringify({ username: __ENV.USERNAME, password: __ENV.AUTH_SECRET }),
    { headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, tags: { name: 'sign_in' } },
  );
  const token = signedIn.status === 200 ? signedIn.json('token') : undefined;
  if (typeof token !== 'string') fail(`sign-in answered ${signedIn.status}: set USERNAME and AUTH_SECRET, or TOKEN`);
  return { token };
}

const pages = [
  ['case_list', '/api/incident/'],
  ['case_list', '/api/incident/?sort=-created'],
  ['case_list', '/api/incident/?page=2'],
  ['case_list_filtered', '/api/incident/?status=NEW&sort=-created'],
  ['case_list_filtered', '/api/incident/?overdue=true'],
];

export default function staffBrowsesCases({ token }) {
  const [name, path] = pages[__ITER % pages.length];
  const listed = http.get(`${base}${path}`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    tags: { name },
  });
  check(listed, { 'case list is 200': (r) => r.status === 200 });
  sleep(3); // reading the page
}
