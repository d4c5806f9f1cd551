// k6 journey for a cluster: a discloser opens the company link, reports (encrypted beforehand, see
// make-discloser-data.mjs), comes back with the secret code, reads the thread and adds a message.
// Shapes: smoke (default), load, spike:
//   node load/k6/make-discloser-data.mjs https://whistle.example acme-xxxxxx 200 > discloser-data.json
//   k6 run -e SHAPE=load -e BASE_URL=https://whistle.example -e DATA=discloser-data.json discloser-journey.js
// Report creation is rate-limited per client and costs a proof of work past a company's normal volume: raise
// REPORT_LIMIT_PER_CLIENT, POW_FREE_REPORTS_PER_COMPANY (and RETRIEVAL_*) on the incident service under test.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { randomBytes } from 'k6/crypto';
import { SharedArray } from 'k6/data';
import { b64encode } from 'k6/encoding';
import { shape } from './shapes.js';

export const options = {
  ...shape(__ENV.SHAPE, { steady: 50, peak: 300 }),
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:company_view}': ['p(95)<100', 'p(99)<250'],
    'http_req_duration{name:create}': ['p(95)<300', 'p(99)<800'],
    'http_req_duration{name:retrieve}': ['p(95)<300'],
    'http_req_duration{name:thread}': ['p(95)<150'],
    'http_req_duration{name:message}': ['p(95)<200'],
  },
};

const base = __ENV.BASE_URL || 'http://localhost:8080';
const data = JSON.parse(open(__ENV.DATA || './discloser-data.json'));
const reports = new SharedArray('reports', () => data.reports);
const json = { 'Content-Type': 'application/json', Accept: 'application/json' };

export default function discloserReportsAndFollowsUp() {
  const report = reports[(__VU * 7919 + __ITER) % reports.length];

  const view = http.get(`${base}/api/account/company/${data.company}`, {
    headers: { Accept: 'application/json' },
    tags: { name: 'company_view' },
  });
  check(view, { 'company view is 200': (r) => r.status === 200 });
  sleep(2); // filling the form

  // As the report page sends it: a key of its own (128 random bits), so a retried create stores nothing twice.
  const created = http.post(`${base}/api/incident/`, JSON.stringify(report.body), {
    headers: { ...json, 'Idempotency-Key': b64encode(randomBytes(16), 'rawurl') },
    tags: { name: 'create' },
  });
  if (!check(created, { 'report is created': (r) => r.status === 201 })) return;
  const retrievalId = created.json('retrieval_id');
  sleep(1); // reading the secret code

  const query = `url_identifier=${encodeURIComponent(data.company)}&retrieval_id=${encodeURIComponent(retrievalId)}`;
  const opened = http.get(`${base}/api/incident/discloser?${query}`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${report.authToken}` },
    tags: { name: 'retrieve' },
  });
  if (!check(opened, { 'report opens with the secret code': (r) => r.status === 200 })) return;
  const session = { Authorization: `Bearer ${opened.json('token')}` };
  const incident = opened.json('uuid');

  const thread = http.get(`${base}/api/incident/${incident}/message`, {
    headers: { Accept: 'application/json', ...session },
    tags: { name: 'thread' },
  });
  check(thread, { 'thread is 200': (r) => r.status === 200 });
  const message = http.post(
    `${base}/api/incident/message/`,
    JSON.stringify({ incident_uuid: incident, content: report.message }),
    { headers: { ...json, ...session }, tags: { name: 'message' } },
  );
  check(message, { 'message is added': (r) => r.status === 201 });
  sleep(1);
}
