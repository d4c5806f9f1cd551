import { FILE_UPLOAD_CONTENT_TYPE, type CompanyPublicView, type IncidentFile } from '@whistle/contracts';
import {
  createIncidentCredentials,
  encryptFile,
  encryptReportFields,
  fileContentDigest,
  signStaffContent,
  staffFileCiphertexts,
  type EncryptedFile,
  type PersonKeys,
} from '@whistle/crypto';

/** A company's discloser view, as the landing page fetches it. */
export async function publicView(baseUrl: string, urlIdentifier: string): Promise<CompanyPublicView> {
  const response = await fetch(`${baseUrl}/api/account/company/${urlIdentifier}`);
  if (!response.ok) throw new Error(`The company view answered ${response.status}`);
  return (await response.json()) as CompanyPublicView;
}

/** A report create body as the discloser's browser builds it: fields encrypted to a fresh incident key. */
export async function reportBody(
  view: CompanyPublicView,
  fields: Record<string, string> = { description: 'Invoices approved without any delivery' },
): Promise<Record<string, unknown>> {
  const credentials = await createIncidentCredentials(view.public_key);
  const category = view.categories.find((candidate) => candidate.parent_uuid === null)!;
  return {
    url_identifier: view.url_identifier,
    category_uuids: [category.uuid],
    location_uuid: view.locations[0]!.uuid,
    ...credentials.payload,
    fields: await encryptReportFields(credentials.incident.publicKey, fields),
    report_anonymously: true,
  };
}

/** A POST /api/incident/file/ body as the browser sends it: a file `encryptFile` encrypted, the ciphertext in base64. */
export const fileUploadBody = (
  encrypted: EncryptedFile,
  file: { incident_uuid: string; incident_message_uuid: string; mime_type: string; file_size: number },
) =>
  JSON.stringify({
    ...file,
    file_name: encrypted.encrypted_file_name,
    encrypted_key: encrypted.encrypted_key,
    content: Buffer.from(encrypted.ciphertext).toString('base64'),
  });

/**
 * A reply's file as the staff case page sends it (docs/security.md, "Signed staff messages"): encrypted, its
 * ciphertext's digest and the sender's signature added, named by the key id the reply's signature was given.
 */
export async function sendSignedStaffFile(
  baseUrl: string,
  sender: { fileToken: string; person: PersonKeys; keyId: string },
  file: { incidentPublicKey: string; incident_uuid: string; incident_message_uuid: string; name: string; text: string },
): Promise<IncidentFile> {
  const content = new TextEncoder().encode(file.text);
  const encrypted = await encryptFile(file.incidentPublicKey, content, { fileName: file.name });
  const content_digest = await fileContentDigest(encrypted.ciphertext);
  const signed = await signStaffContent(sender.person, {
    incidentPublicKey: file.incidentPublicKey,
    kind: 'file',
    ciphertexts: staffFileCiphertexts({ ...encrypted, content_digest }),
  });
  const response = await fetch(`${baseUrl}/api/incident/file/`, {
    method: 'POST',
    headers: { 'content-type': FILE_UPLOAD_CONTENT_TYPE, authorization: `Bearer ${sender.fileToken}` },
    body: JSON.stringify({
      incident_uuid: file.incident_uuid,
      incident_message_uuid: file.incident_message_uuid,
      mime_type: 'text/plain',
      file_size: content.length,
      file_name: encrypted.encrypted_file_name,
      encrypted_key: encrypted.encrypted_key,
      signature: signed.signature,
      signature_nonce: signed.nonce,
      signer_key_id: sender.keyId,
      content_digest,
      content: Buffer.from(encrypted.ciphertext).toString('base64'),
    }),
  });
  if (response.status !== 201) throw new Error(`The upload answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as IncidentFile;
}

/** A report sent to the company as the discloser's browser sends it; resolves the new case's uuid. */
export async function submitReport(baseUrl: string, urlIdentifier: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/incident/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(await reportBody(await publicView(baseUrl, urlIdentifier))),
  });
  if (response.status !== 201) throw new Error(`The report answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { uuid: string }).uuid;
}
