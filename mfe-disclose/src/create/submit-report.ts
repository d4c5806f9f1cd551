import { ApiError, createIncident, getDiscloserIncident, withToken, type ApiClient } from '@whistle/api-client';
import type { CompanyPublicView, ReportField } from '@whistle/contracts';
import { deriveDiscloserAuthToken, encryptFields, formatSecretCode, type IncidentCredentials } from '@whistle/crypto';
import { uploadAttachment, type Attachment } from '@whistle/ui/report';
import { encryptedFieldValues, type ReportErrors, type ReportForm, type RequiredField } from './report-form';

export interface SubmittedReport {
  secretCode: string;
  /** Files that could not be attached: the report exists, so the code is shown all the same. */
  failedFiles: string[];
}

/**
 * Encrypts the report, creates the incident, then (only when there are files) opens the incident
 * as its discloser to get the session token that uploads need, and uploads each file encrypted.
 */
export async function submitReport(input: {
  api: ApiClient;
  company: Pick<CompanyPublicView, 'url_identifier'>;
  credentials: IncidentCredentials;
  form: ReportForm;
  files: readonly Attachment[];
  onFileProgress?: (id: string, fraction: number) => void;
}): Promise<SubmittedReport> {
  const { api, company, credentials, form, files } = input;
  // The names are those of encryptedFieldValues, typed as the contract's; encryption keeps them.
  const fields = (await encryptFields(credentials.incident.publicKey, encryptedFieldValues(form))) as ReportField[];
  const created = await createIncident(api, {
    ...credentials.payload,
    url_identifier: company.url_identifier,
    category_uuids: form.category_uuids,
    location_uuid: form.location_uuid,
    fields,
    report_anonymously: form.report_anonymously,
    report_channel: form.report_channel,
  });
  const secretCode = formatSecretCode(created.retrieval_id, credentials.discloserPassphrase);
  const failedFiles: string[] = [];
  if (files.length > 0) {
    try {
      const authToken = await deriveDiscloserAuthToken(credentials.discloserPassphrase);
      const { token } = await getDiscloserIncident(
        withToken(api, authToken),
        company.url_identifier,
        created.retrieval_id,
      );
      const sessionApi = withToken(api, token);
      for (const file of files) {
        try {
          await uploadAttachment(sessionApi, credentials.incident, created.uuid, null, file, (fraction) =>
            input.onFileProgress?.(file.id, fraction),
          );
        } catch {
          failedFiles.push(file.name);
        }
      }
    } catch {
      failedFiles.push(...files.map((file) => file.name));
    }
  }
  return { secretCode, failedFiles };
}

const REQUIRED: readonly RequiredField[] = ['category_uuids', 'location_uuid', 'description'];

/** Server field errors (400) shown like the form's own, when they name a required input; null otherwise. */
export function refusedFields(error: unknown): ReportErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const errors = (error.body as { errors?: Record<string, unknown> } | null)?.errors ?? {};
  const known = REQUIRED.filter((name) => name in errors);
  return known.length > 0 ? Object.fromEntries(known.map((name) => [name, true])) : null;
}
