import { recordStaffReport, type ApiClient } from '@whistle/api-client';
import type { CompanyPublicView, IncidentCreateRequest, ReportField } from '@whistle/contracts';
import { createIncidentCredentials, encryptReportFields, formatSecretCode } from '@whistle/crypto';
import type { IncidentFieldValues } from '@whistle/ui/report';

/** What a staff member writes down of a report taken by telephone or in a meeting (the report form's fields). */
export interface StaffRecord extends IncidentFieldValues {
  report_channel: 'telephone' | 'internal';
  report_anonymously: boolean;
  category_uuids: string[];
  location_uuid: string;
  description: string;
  location_detail: string;
  date: string;
  end_date: string;
  people_involved: string;
  outcome: string;
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
  end_date: '',
  people_involved: '',
  outcome: '',
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
  for (const name of ['description', 'location_detail', 'date', 'end_date', 'people_involved', 'outcome'] as const)
    keep(name, record[name]);
  keep('can_contact', record.can_contact);
  return values;
}

/** Whether the recorder is assigned what they record (a handler; admins and reviewers see every case anyway). */
export const recorderIsAssigned = (roles: readonly string[]) => !roles.includes('ADMIN') && !roles.includes('REVIEWER');

/** The recorder's own current public key, as the shell's keyring holds it once unlocked. */
export interface RecorderKey {
  publicKey: string;
  fingerprint: string;
}

/** The recorder's own wrapping, told apart from the default assignees' by a key id no key has. */
const RECORDER = 'recorder';

/**
 * The record made into a report in this browser exactly as a reporter's browser makes theirs (docs/security.md,
 * "Reports taken by staff"): a new incident key pair, its passphrase wrapped to the company key and sealed under a
 * new secret code, every field encrypted to the incident key, and grants to the chosen categories' default
 * assignees. With `recorder` (a handler, who is assigned the case), the case team secret is wrapped to their own key
 * too, so they open the case (and its notes) without the company key. Only ciphertext leaves; the code is the reporter's.
 */
export async function recordReport(
  api: ApiClient,
  company: Pick<CompanyPublicView, 'url_identifier' | 'public_key' | 'key_version' | 'categories'>,
  record: StaffRecord,
  recorder?: RecorderKey,
): Promise<{ uuid: string; secretCode: string }> {
  const assignees = new Map<string, string>();
  for (const category of company.categories)
    if (record.category_uuids.includes(category.uuid))
      for (const key of category.recipient_keys ?? []) assignees.set(key.key_id, key.public_key);
  const credentials = await createIncidentCredentials(company.public_key, [
    ...[...assignees].map(([key_id, public_key]) => ({ key_id, public_key })),
    ...(recorder ? [{ key_id: RECORDER, public_key: recorder.publicKey }] : []),
  ]);
  const grants = credentials.grants.filter((grant) => grant.key_id !== RECORDER);
  const own = credentials.grants.find((grant) => grant.key_id === RECORDER);
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
    ...(grants.length > 0 ? { grants } : {}),
    ...(recorder && own
      ? { recorder_grant: { fingerprint: recorder.fingerprint, wrapped_passphrase: own.wrapped_passphrase } }
      : {}),
  };
  const created = await recordStaffReport(api, payload, { idempotencyKey: crypto.randomUUID() });
  return { uuid: created.uuid, secretCode: formatSecretCode(created.retrieval_id, credentials.discloserPassphrase) };
}
