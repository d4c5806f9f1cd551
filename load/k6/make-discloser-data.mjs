#!/usr/bin/env node
// Prepares what the k6 discloser journey sends, encrypted as each discloser's browser would encrypt it (k6 has
// no HKDF/ECIES): for a company, N report bodies with their discloser auth tokens and an encrypted follow-up
// message. k6 posts them; the server cannot tell them from browser-made ones.
//   node load/k6/make-discloser-data.mjs https://whistle.example acme-xxxxxx 200 > discloser-data.json
import { discloserReports } from '../bench/discloser-data.mjs';

const [baseUrl, company, count = '100'] = process.argv.slice(2);
if (!baseUrl || !company) {
  console.error('usage: make-discloser-data.mjs <base url> <url_identifier> [count]');
  process.exit(2);
}

const response = await fetch(`${baseUrl}/api/account/company/${company}`);
if (!response.ok) {
  console.error(`${response.url} answered ${response.status}`);
  process.exit(1);
}
const reports = await discloserReports(company, await response.json(), Number(count));
process.stdout.write(JSON.stringify({ company, reports }));
