// Report bodies as a discloser's browser makes them (ECIES to the company key, fields encrypted to the new
// incident key, the auth token derived from the passphrase), made before a load run so the server cannot tell
// them from browser-made ones and the load generator spends no time on cryptography. Used by the autocannon
// journey bench (journey.mjs) and by the k6 data generator (k6/make-discloser-data.mjs).
import crypto from '@whistle/crypto';

const { createIncidentCredentials, deriveDiscloserAuthToken, encryptContent, encryptReportFields } = crypto;

/**
 * `count` reports to the company of `view` (GET /api/account/company/{id}'s answer): `body` for
 * POST /api/incident/, the discloser's `authToken` for retrieval, an encrypted follow-up `message`.
 */
export async function discloserReports(company, view, count) {
  const category = view.categories.find((candidate) => candidate.parent_uuid === null);
  const reports = [];
  for (let i = 0; i < count; i += 1) {
    const credentials = await createIncidentCredentials(view.public_key);
    reports.push({
      body: {
        url_identifier: company,
        category_uuids: [category.uuid],
        location_uuid: view.locations[0].uuid,
        ...credentials.payload,
        fields: await encryptReportFields(credentials.incident.publicKey, {
          description: `Load test report ${i}: invoices approved without delivery.`,
          location_detail: 'Warehouse 2',
        }),
        report_anonymously: true,
      },
      authToken: await deriveDiscloserAuthToken(credentials.discloserPassphrase),
      message: await encryptContent(credentials.incident.publicKey, `Follow-up ${i}: one more detail.`, {
        kind: 'message',
        from: 'discloser',
      }),
    });
  }
  return reports;
}
