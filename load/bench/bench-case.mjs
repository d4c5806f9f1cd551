// The case the staff benchmarks open (bench:case-browser, bench:lighthouse-staff): 10 report fields, 20 messages
// (the reporter and the case team in turn) and 3 files, each encrypted as the browsers encrypt them, in a tenant of
// case-seed.mjs (imported after the benchmark has set BENCH_CASES, which case-seed.mjs reads when loaded).
import crypto from '@whistle/crypto';
import { json, post } from './case-seed.mjs';
import { companyPrivateKey } from './staff-keys.mjs';

const { createIncidentCredentials, deriveDiscloserAuthToken, encryptContent, encryptReportFields, encryptFile } =
  crypto;
const { openIncidentAsCompany, openIncidentAsDiscloser } = crypto;
const FILE_UPLOAD_CONTENT_TYPE = 'application/vnd.whistle.incident-file-upload';

export const CASE_MESSAGES = 20;
export const CASE_FILES = 3;
/** The case's tokens: each shows on the page only once its ciphertext is decrypted. */
export const CASE_TOKENS = [
  ...['full_name', 'email', 'phone_number', 'description', 'location_detail', 'people_involved', 'outcome'].map(
    (name) => `bench-field-${name}`,
  ),
  ...Array.from({ length: CASE_MESSAGES }, (_, i) => `bench-message-${i}-end`),
  ...Array.from({ length: CASE_FILES }, (_, i) => `bench-file-${i}.pdf`),
];

/** The case to open: 10 fields, 20 messages (reporter and staff alternating), 3 files, all encrypted. */
export async function makeCase(tenant) {
  const { api, company, adminToken } = tenant;
  const view = await json(await fetch(api(`/api/account/company/${company.urlIdentifier}`)));
  const category = view.categories.find((candidate) => candidate.parent_uuid === null);
  const credentials = await createIncidentCredentials(view.public_key);
  const fields = {
    full_name: 'Jane bench-field-full_name',
    email: 'bench-field-email@example.com',
    phone_number_code: '+33',
    phone_number: '0612345678 bench-field-phone_number',
    can_contact: 'yes',
    description: `${'Invoices paid twice to a shell company. '.repeat(20)}bench-field-description`,
    location_detail: 'Warehouse 2, bench-field-location_detail',
    date: '2026-10-01',
    people_involved: 'The manager and the accountant, bench-field-people_involved',
    outcome: 'The money should be recovered, bench-field-outcome',
  };
  const created = await json(
    await post(api('/api/incident/'), {
      url_identifier: view.url_identifier,
      category_uuids: [category.uuid],
      location_uuid: view.locations[0].uuid,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, fields),
      report_anonymously: false,
    }),
  );
  const retrieval = new URLSearchParams({ url_identifier: view.url_identifier, retrieval_id: created.retrieval_id });
  const authToken = await deriveDiscloserAuthToken(credentials.discloserPassphrase);
  const discloserView = await json(
    await fetch(api(`/api/incident/discloser?${retrieval}`), { headers: { authorization: `Bearer ${authToken}` } }),
  );
  const discloser = await openIncidentAsDiscloser({
    ...discloserView,
    discloserPassphrase: credentials.discloserPassphrase,
  });
  const uuid = discloserView.uuid;
  const staffAuth = { authorization: `Bearer ${adminToken}` };
  const staffView = await json(await fetch(api(`/api/incident/${uuid}`), { headers: staffAuth }));
  const staff = await openIncidentAsCompany({
    ...staffView.keys,
    companyPrivateKey: await companyPrivateKey(tenant.baseUrl, adminToken, company.password),
  });
  for (let i = 0; i < CASE_MESSAGES; i += 1) {
    const fromReporter = i % 2 === 0;
    const text = `${fromReporter ? 'A detail I remembered' : 'Thank you, a question'}: ${'more words here. '.repeat(10)}bench-message-${i}-end`;
    await json(
      await post(
        api('/api/incident/message/'),
        {
          incident_uuid: uuid,
          content: await encryptContent((fromReporter ? discloser : staff).publicKey, text, {
            kind: 'message',
            from: fromReporter ? 'discloser' : 'staff',
          }),
        },
        fromReporter ? discloserView.token : adminToken,
      ),
    );
  }
  for (let i = 0; i < CASE_FILES; i += 1) {
    const content = Buffer.from(`%PDF-1.4 bench file ${i} `.repeat(2000));
    const encrypted = await encryptFile(discloser.publicKey, content, { fileName: `bench-file-${i}.pdf` });
    const response = await fetch(api('/api/incident/file/'), {
      method: 'POST',
      headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE, authorization: `Bearer ${discloserView.token}` },
      body: JSON.stringify({
        incident_uuid: uuid,
        mime_type: 'application/pdf',
        file_name: encrypted.encrypted_file_name,
        encrypted_key: encrypted.encrypted_key,
        file_size: content.length,
        content: Buffer.from(encrypted.ciphertext).toString('base64'),
      }),
    });
    await json(response);
  }
  return uuid;
}
