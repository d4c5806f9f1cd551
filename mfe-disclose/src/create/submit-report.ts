import {
  ApiError,
  createIncident,
  getCompanyPublicView,
  getDiscloserIncident,
  withToken,
  type ApiClient,
} from '@whistle/api-client';
import type { CompanyPublicView, IncidentCreateRequest, ReportField } from '@whistle/contracts';
import {
  createIncidentCredentials,
  deriveDiscloserAuthToken,
  encryptReportFields,
  formatSecretCode,
  submissionFingerprint,
  type IncidentCredentials,
  type TeamKey,
} from '@whistle/crypto';
import { uploadAttachment, type Attachment } from '@whistle/ui/report';
import type { BackgroundProof } from './proof-of-work';
import { REQUIRED_FIELDS, encryptedFieldValues, type ReportErrors, type ReportForm } from './report-form';
import { readerChoice, readersOf } from './report-readers';

/** What the success page's receipt names (issue 26): never the secret code, which it adds only when asked. */
export interface SubmissionReceipt {
  reportNumber: number;
  /** When the server's answer came (ISO 8601, this browser's clock). */
  sentAt: string;
  /** submissionFingerprint of the request as sent: the case page computes it again from the stored report. */
  fingerprint: string;
}

export interface SubmittedReport {
  secretCode: string;
  /** Files that could not be attached: the report exists, so the code is shown all the same. */
  failedFiles: string[];
  receipt: SubmissionReceipt;
}

/**
 * A report encrypted once and given its idempotency key once: every try sends these very bytes, so a try whose
 * answer was lost and the next one make one report, and the discloser gets its secret code.
 */
export interface PreparedReport {
  idempotencyKey: string;
  payload: IncidentCreateRequest;
}

/**
 * Every key the company view lists for a category's default assignees and for the admins and reviewers, once each, by key
 * id: the new report's passphrase is wrapped to all of them when its credentials are made (docs/security.md,
 * "Per-case grants"), and those the report needs are sent with it (readerChoice).
 */
export function recipientKeysOf(
  company: Pick<CompanyPublicView, 'categories'> & Partial<Pick<CompanyPublicView, 'every_case_keys'>>,
): { key_id: string; public_key: string }[] {
  const everyCategory = (company.categories ?? []).map((category) => category.uuid);
  return readersOf(company, everyCategory).map((reader) => ({ key_id: reader.keyId, public_key: reader.publicKey }));
}

/**
 * The case team's signing keys as the company view lists them (every category's default assignees, the admins and
 * reviewers), once each by key id: pinned in the report, sealed for the discloser, for the review page to check the
 * team's signatures against (docs/security.md, "Signed staff messages"). A person listed without one (a view from
 * before signing keys were listed) is left out.
 */
export function teamKeysOf(
  company: Pick<CompanyPublicView, 'categories'> & Partial<Pick<CompanyPublicView, 'every_case_keys'>>,
): TeamKey[] {
  const listed = [...(company.categories ?? []).flatMap((category) => category.recipient_keys ?? [])];
  const keys = new Map<string, TeamKey>();
  for (const key of [...listed, ...(company.every_case_keys ?? [])])
    if (key.signing_public_key)
      keys.set(key.key_id, {
        key_id: key.key_id,
        signing_public_key: key.signing_public_key,
        role: key.role ?? 'HANDLER',
      });
  return [...keys.values()];
}

export async function prepareReport(input: {
  company: Pick<CompanyPublicView, 'url_identifier' | 'key_version'> &
    Partial<Pick<CompanyPublicView, 'categories' | 'every_case_keys'>>;
  credentials: IncidentCredentials;
  form: ReportForm;
  /** The page's language: the case team sees it, encrypted with the report, and answers in it. */
  language: string;
}): Promise<PreparedReport> {
  const { company, credentials, form, language } = input;
  // Nobody else gets this report's key: the readers the discloser keeps, and only those who need a grant of it.
  const readers = readerChoice(company, form.category_uuids, form.excluded_key_ids);
  const grants = credentials.grants.filter((grant) => readers.grantedKeyIds.has(grant.key_id));
  // The names are those of encryptedFieldValues, typed as the contract's; each value is bound to its name.
  const fields = (await encryptReportFields(credentials.incident.publicKey, {
    ...encryptedFieldValues(form),
    language,
  })) as ReportField[];
  return {
    idempotencyKey: crypto.randomUUID(),
    payload: {
      ...credentials.payload,
      url_identifier: company.url_identifier,
      category_uuids: form.category_uuids,
      location_uuid: form.location_uuid,
      fields,
      report_anonymously: form.report_anonymously,
      report_channel: form.report_channel,
      company_key_version: company.key_version,
      ...(readers.companyWrapped ? {} : { company_encrypted_passphrase: null }),
      ...(grants.length > 0 ? { grants } : {}),
      ...(readers.excludedKeyIds.length > 0 ? { excluded_key_ids: readers.excludedKeyIds } : {}),
    },
  };
}

/**
 * The server's answer to a report wrapped to a company key it no longer keeps: the company renewed its key (a
 * rotation, docs/security.md) and retired the old one while this page was open.
 */
const refusedForStaleKey = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 409 &&
  'company_key_version' in ((error.body as { errors?: object } | null)?.errors ?? {});

/**
 * The same form made into a report again after refusedForStaleKey, for the company's current key: the company view
 * asked for again (revalidated, so not a copy from before the rotation) and new incident credentials, so a new
 * secret code. Nothing of the refused report was stored.
 */
async function prepareForCurrentKey(input: {
  api: ApiClient;
  company: Pick<CompanyPublicView, 'url_identifier'>;
  form: ReportForm;
  language: string;
}): Promise<{ credentials: IncidentCredentials; prepared: PreparedReport }> {
  const current = await getCompanyPublicView(input.api, input.company.url_identifier);
  const credentials = await createIncidentCredentials(
    current.public_key,
    recipientKeysOf(current),
    teamKeysOf(current),
  );
  const { form, language } = input;
  return { credentials, prepared: await prepareReport({ company: current, credentials, form, language }) };
}

/** Waits before each try after the first: a dropped connection or a restarting server gets a few seconds. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000];

/** A failure another try may cure: no answer at all, or a gateway or server that is briefly away. */
const worthRetrying = (error: unknown) =>
  error instanceof ApiError ? [502, 503, 504].includes(error.status) : error instanceof TypeError;

/** A 400 about the proof of work alone (spent, expired, outgrown by the company's volume): a new one may pass. */
const refusedProof = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 400 &&
  'proof_of_work' in ((error.body as { errors?: object } | null)?.errors ?? {});

async function createWithRetries(
  api: ApiClient,
  prepared: PreparedReport,
  delaysMs: readonly number[],
  proof: BackgroundProof | undefined,
) {
  let renewed = false;
  for (let attempt = 0; ; attempt += 1) {
    try {
      // The solution solved while the discloser wrote (the same one on each try, so a retry stays one report).
      const solution = await proof?.solution();
      const payload = solution ? { ...prepared.payload, proof_of_work: solution } : prepared.payload;
      return await createIncident(api, payload, { idempotencyKey: prepared.idempotencyKey });
    } catch (error) {
      if (proof && !renewed && refusedProof(error)) {
        renewed = true;
        proof.renew();
        continue;
      }
      const delay = delaysMs[attempt];
      if (delay === undefined || !worthRetrying(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * Creates the incident from a prepared report (trying again on a network or gateway failure, with the same
 * key), then (only when there are files) opens the incident as its discloser to get the session token that
 * uploads need, and uploads each file encrypted.
 */
export async function submitReport(input: {
  api: ApiClient;
  company: Pick<CompanyPublicView, 'url_identifier'>;
  credentials: IncidentCredentials;
  prepared: PreparedReport;
  files: readonly Attachment[];
  onFileProgress?: (id: string, fraction: number) => void;
  /** A file the server could not take now is sent again in `seconds`. */
  onFileRetry?: (id: string, seconds: number) => void;
  retryDelaysMs?: readonly number[];
  /** The proof of work solved in the background since the form opened (docs/security.md, "Report flooding"). */
  proof?: BackgroundProof;
}): Promise<SubmittedReport> {
  const { api, company, credentials, files } = input;
  const created = await createWithRetries(api, input.prepared, input.retryDelaysMs ?? RETRY_DELAYS_MS, input.proof);
  const secretCode = formatSecretCode(created.retrieval_id, credentials.discloserPassphrase);
  const receipt: SubmissionReceipt = {
    reportNumber: created.display_report_number,
    sentAt: new Date().toISOString(),
    // Of the very request the server took (a retry sends the same prepared bytes).
    fingerprint: await submissionFingerprint(input.prepared.payload),
  };
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
          await uploadAttachment(
            sessionApi,
            credentials.incident,
            created.uuid,
            null,
            file,
            (fraction) => input.onFileProgress?.(file.id, fraction),
            (seconds) => input.onFileRetry?.(file.id, seconds),
          );
        } catch {
          failedFiles.push(file.name);
        }
      }
    } catch {
      failedFiles.push(...files.map((file) => file.name));
    }
  }
  return { secretCode, failedFiles, receipt };
}

/** Server field errors (400) shown like the form's own, when they name a required input; null otherwise. */
export function refusedFields(error: unknown): ReportErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const errors = (error.body as { errors?: Record<string, unknown> } | null)?.errors ?? {};
  const known = REQUIRED_FIELDS.filter((name) => name in errors);
  return known.length > 0 ? Object.fromEntries(known.map((name) => [name, true])) : null;
}

/** A report ready to send: the credentials it was made with (its secret code comes from them) and its request. */
export interface ReadyReport {
  credentials: IncidentCredentials;
  prepared: PreparedReport;
}

/**
 * submitReport, and when the company renewed its key while the page was open (refusedForStaleKey), the same form
 * made into a report for the current key and sent once more, without the discloser doing anything. `onRenewed`
 * gets the new report, for a later try after a failure to send that one again rather than the refused one.
 */
export async function submitToCurrentKey(
  input: Omit<Parameters<typeof submitReport>[0], 'credentials' | 'prepared'> & {
    report: ReadyReport;
    form: ReportForm;
    language: string;
    onRenewed: (renewed: ReadyReport) => void;
  },
): Promise<SubmittedReport> {
  const { report, form, language, onRenewed, ...sending } = input;
  try {
    return await submitReport({ ...sending, ...report });
  } catch (error) {
    if (!refusedForStaleKey(error)) throw error;
    const renewed = await prepareForCurrentKey({ api: sending.api, company: sending.company, form, language });
    onRenewed(renewed);
    return submitReport({ ...sending, ...renewed });
  }
}
