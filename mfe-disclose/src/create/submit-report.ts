import {
  createApiClient,
  createIncident,
  getDiscloserIncident,
  uploadIncidentFile,
  type ApiClient,
} from '@whistle/api-client';
import type { CompanyPublicView, ReportField } from '@whistle/contracts';
import {
  deriveDiscloserAuthToken,
  encryptFields,
  encryptFile,
  formatSecretCode,
  type IncidentCredentials,
  type IncidentHandle,
} from '@whistle/crypto';
import { encryptedFieldValues, type ReportForm } from './report-form';

export interface Attachment {
  id: string;
  name: string;
  size: number;
  type: string;
  bytes: Uint8Array;
}

export interface SubmittedReport {
  secretCode: string;
  /** Files that could not be attached: the report exists, so the code is shown all the same. */
  failedFiles: string[];
}

/** Encrypts one file in the browser and uploads the ciphertext with the discloser session token. */
export async function uploadAttachment(
  api: ApiClient,
  sessionToken: string,
  handle: Pick<IncidentHandle, 'publicKey'>,
  incidentUuid: string,
  messageUuid: string | null,
  file: Attachment,
  onProgress?: (fraction: number) => void,
) {
  const encrypted = await encryptFile(handle.publicKey, file.bytes, { fileName: file.name });
  return uploadIncidentFile(
    api,
    sessionToken,
    {
      incident_uuid: incidentUuid,
      incident_message_uuid: messageUuid,
      ciphertext: encrypted.ciphertext,
      file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      file_size: file.size,
      mime_type: file.type || 'application/octet-stream',
    },
    { onProgress },
  );
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
      const discloserApi = createApiClient({ baseUrl: api.baseUrl, getToken: () => authToken });
      const { token } = await getDiscloserIncident(discloserApi, company.url_identifier, created.retrieval_id);
      for (const file of files) {
        try {
          await uploadAttachment(api, token, credentials.incident, created.uuid, null, file, (fraction) =>
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
