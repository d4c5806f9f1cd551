// k6 journey for a cluster: a discloser opens the company link (view + QR code), the hot public path.
// Shapes: smoke (default), load, spike — `k6 run -e SHAPE=load -e BASE_URL=https://whistle.example -e COMPANY=acme-xxxxxx onboarding.js`.
// Companies are created beforehand (onboarding is rate-limited per client on purpose).
import http from 'k6/http';
import { check, sleep } from 'k6';
import { shape } from './shapes.js';

export const options = {
  ...shape(__ENV.SHAPE, { steady: 100, peak: 500 }),
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:company_view}': ['p(95)<100', 'p(99)<250'],
    'http_req_duration{name:qrcode}': ['p(95)<200'],
  },
};

const base = __ENV.BASE_URL || 'http://localhost:8080';
const company = __ENV.COMPANY;

export default function discloserOpensLink() {
  const view = http.get(`${base}/api/account/company/${company}`, {
    headers: { Accept: 'application/json' },
    tags: { name: 'company_view' },
  });
  check(view, {
    'company view is 200': (r) => r.status === 200,
    'has a public key': (r) => r.json('public_key') !== undefined,
  });
  const qr = http.get(`${base}/api/account/company/${company}/qrcode`, { tags: { name: 'qrcode' } });
  check(qr, { 'qr code is a png': (r) => r.status === 200 && r.headers['Content-Type'] === 'image/png' });
  sleep(1);
}
