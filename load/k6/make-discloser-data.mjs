#!/usr/bin/env node
// Prepares what the k6 discloser journey sends, encrypted as each discloser's browser would encrypt it (k6 has
// no HKDF/ECIES): for a company, N report bodies with their discloser auth tokens and an encrypted follow-up
// message. k6 posts them; the server cannot tell them from browser-made ones.
//   node load/k6/make-discloser-data.mjs https://whistle.example acme-xxxxxx 200 > discloser-data.json
import crypto from '@whistle/crypto';

const { createIncidentCredentials, deriveDiscloserAuthToken, encryptField, encryptFields } = crypto;
const [baseUrl, company, count = '100'] = process.argv.slice(2);
if (!baseUrl || !company) {
  console.error('usage: make-discloser-data.mjs <base url> <url_identifier> [count]');
  process.exit(2);
}

const view = await (await fetch(`${baseUrl}/api/account/company/${company}`)).json();
const category = view.categories.find((candidate) => candidate.parent_uuid === null);
const reports = [];
for (let i = 0; i < Number(count); i += 1) {
  const credentials = await createIncidentCredentials(view.public_key);
  reports.push({
    body: {
      url_identifier: company,
      category_uuids: [category.uuid],
      location_uuid: view.locations[0].uuid,
      ...credentials.payload,
      fields: await encryptFields(credentials.incident.publicKey, {
        description: `Load test report ${i}: invoices approved without delivery.`,
        location_detail: 'Warehouse 2',
      }),
      report_anonymously: true,
    },
    authToken: await deriveDiscloserAuthToken(credentials.discloserPassphrase),
    message: await encryptField(credentials.incident.publicKey, `Follow-up ${i}: one more detail.`),
  });
}
process.stdout.write(JSON.stringify({ company, reports }));
