import { recordStaffReport, type ApiClient } from '@whistle/api-client';
import type { CompanyPublicView, IncidentCreateRequest, ReportField } from '@whistle/contracts';
import { createIncidentCredentials, encryptReportFields, formatSecretCode } from '@whistle/crypto';

/** What a staff member writes down of a report taken by telephone or in a meeting (the report form's fields). */
export interface StaffRecord {
  report_channel: 'telephone' | 'internal';
  report_anonymously: boolean;
  category_uuids: string[];
  location_uuid: string;
  description: string;
  location_detail: string;
  date: string;
  people_involved: string;
  full_name: string;
  email: string;
  phone_number: string;
  can_contact: 'yes' | 'no';
}

export const emptyRecord = (): StaffRecord => ({
  report_channel: 'telephone',
  report_anonymously: true,
  category_uuids: [],
  location_uuid: '',
  description: '',
  location_detail: '',
  date: '',
  people_involved: '',
  full_name: '',
  email: '',
  phone_number: '',
  can_contact: 'yes',
});

/** The fields encrypted, as the reporter's form keeps them: trimmed, empty ones left out, identity only when given. */
function fieldValues(record: StaffRecord): Record<string, string> {
  const values: Record<string, string> = {};
  const keep = (name: string, value: string) => {
    if (value.trim()) values[name] = value.trim();
  };
  if (!record.report_anonymously)
    for (const name of ['full_name', 'email', 'phone_number'] as const) keep(name, record[name]);
  for (const name of ['description', 'location_detail', 'date', 'people_involved'] as const) keep(name, record[name]);
  keep('can_contact', record.can_contact);
  return values;
}

/**
 * The record made into a report in this browser exactly as a reporter's browser makes theirs (docs/security.md,
 * "Reports taken by staff"): a new incident key pair, its passphrase wrapped to the company key and sealed under a
 * new secret code, every field encrypted to the incident key. Only ciphertext leaves; the code is the reporter's.
 */
export async function recordReport(
  api: ApiClient,
  company: Pick<CompanyPublicView, 'url_identifier' | 'public_key' | 'key_version'>,
  record: StaffRecord,
): Promise<{ uuid: string; secretCode: string }> {
  const credentials = await createIncidentCredentials(company.public_key);
  const fields = (await encryptReportFields(credentials.incident.publicKey, fieldValues(record))) as ReportField[];
  const payload: IncidentCreateRequest = {
    ...credentials.payload,
    url_identifier: company.url_identifier,
    category_uuids: record.category_uuids,
    location_uuid: record.location_uuid,
    fields,
    report_anonymously: record.report_anonymously,
    report_channel: record.report_channel,
    company_key_version: company.key_version,
  };
  const created = await recordStaffReport(api, payload, { idempotencyKey: crypto.randomUUID() });
  return { uuid: created.uuid, secretCode: formatSecretCode(created.retrieval_id, credentials.discloserPassphrase) };
}
