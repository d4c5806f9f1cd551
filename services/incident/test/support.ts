import { randomUUID } from 'node:crypto';
import type { IncidentCreateResponse } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  createPersonKeys,
  encryptReportFields,
  importPersonKeys,
  personFingerprint,
  unlockCompanyPrivateKey,
  type IncidentCredentials,
  type PersonKeys,
} from '@whistle/crypto';
import { createOutbox, messagingMigrations, migrate } from '@whistle/service-kit';
import { serveService, waitFor } from '@whistle/service-kit/testing';
import { generateDiscloserTokenKeys, signStaffToken } from '@whistle/tokens/testing';
import { incidentConfigSchema } from '../src/config';
import { createIncidentService, type IncidentDependencies, type IncidentService } from '../src/service';

export interface RunningIncident {
  baseUrl: string;
  service: IncidentService;
  /** Verifies the discloser tokens this instance signs (the file service's DISCLOSER_TOKEN_PUBLIC_KEY). */
  publicKeyPem: string;
  close(): Promise<void>;
}

/** Stands in for auth's staff-token signing key; every instance verifies with its public half. */
const staffSigningKeys = generateDiscloserTokenKeys();

/** A staff access token as auth signs it. */
export const staffToken = (staff: {
  userId: string;
  companyId: string;
  roles: readonly string[];
  jti?: string;
  issuedAt?: number;
  authTime?: number;
  mfaEnrollmentRequired?: boolean;
}) => signStaffToken(staffSigningKeys.privateKeyPem, staff);

/** Rate limits high enough that only the tests about them reach them. */
const roomyLimits = {
  REPORT_LIMIT_PER_CLIENT: '1000',
  RETRIEVAL_LIMIT_PER_CLIENT: '1000',
  // No proof of work unless a test is about it.
  POW_FREE_REPORTS_PER_COMPANY: '100000',
};

/**
 * The incident service served on a loopback port as `runService` serves it, on the given dependencies.
 * `replica: true` serves another instance (own rate-limit counters) beside a started one, which
 * already runs the migrations, consumers and relay: one bus takes one consumer of a name.
 */
export async function startIncident(
  deps: IncidentDependencies,
  env: Record<string, string> = {},
  { replica = false } = {},
): Promise<RunningIncident> {
  const keys = generateDiscloserTokenKeys();
  const config = incidentConfigSchema.parse({
    DISCLOSER_TOKEN_PRIVATE_KEY: keys.privateKeyPem,
    TOKEN_PUBLIC_KEY: staffSigningKeys.publicKeyPem,
    ...roomyLimits,
    ...env,
  });
  const service = createIncidentService(deps, config);
  return {
    service,
    publicKeyPem: keys.publicKeyPem,
    // Loopback is the trusted proxy: tests name distinct clients with X-Forwarded-For, as an ingress would.
    ...(await serveService(service, deps.logger, { start: !replica, trustProxy: 'loopback' })),
  };
}

export interface SeededCompany {
  companyId: string;
  urlIdentifier: string;
  /** The company key pair's public half, as the discloser's browser receives it. */
  publicKey: string;
  categories: { fraud: string; bribery: string; retired: string };
  locations: { office: string; closed: string };
  /** The company private key, as a staff member's browser unlocks it. */
  privateKey(): Promise<CryptoKey>;
}

let companyCounter = 0;

/**
 * A company as auth announces it (`company.created` through a real outbox), once the incident
 * service's read model knows it. `producer` must have its messaging tables (see `prepareProducer`).
 */
export async function seedCompany(deps: IncidentDependencies): Promise<SeededCompany> {
  companyCounter += 1;
  const companyId = randomUUID();
  const urlIdentifier = `acme-${companyCounter}-${companyId.slice(0, 6)}`;
  const categories = { fraud: randomUUID(), bribery: randomUUID(), retired: randomUUID() };
  const locations = { office: randomUUID(), closed: randomUUID() };
  const { credential, passphrase } = await createCompanyCredentials();
  const envelope = await deps.db.transaction((tx) =>
    createOutbox('producer').add(tx, {
      name: 'company.created',
      company_id: companyId,
      payload: {
        company_id: companyId,
        url_identifier: urlIdentifier,
        name: 'Acme',
        country: 'FR',
        created_by: { user_id: randomUUID(), email: 'admin@acme.example' },
        categories: [
          { uuid: categories.fraud, name: 'Fraud', parent_uuid: null, is_active: true },
          { uuid: categories.bribery, name: 'Bribery', parent_uuid: categories.fraud, is_active: true },
          { uuid: categories.retired, name: 'Retired', parent_uuid: null, is_active: false },
        ],
        locations: [
          { uuid: locations.office, name: 'Head office', is_active: true },
          { uuid: locations.closed, name: 'Closed site', is_active: false },
        ],
      },
    }),
  );
  await deps.bus.publish(envelope);
  await waitFor(
    async () =>
      (await deps.db.query('select 1 from incident.location where id = $1', [locations.office])).rows.length > 0,
    {
      what: 'the company in the incident read model',
    },
  );
  return {
    companyId,
    urlIdentifier,
    publicKey: credential.public_key,
    categories,
    locations,
    privateKey: () =>
      unlockCompanyPrivateKey({ aes_encrypted_private_key: credential.aes_encrypted_private_key, passphrase }),
  };
}

/** Publishes an event of another service through a real outbox (the producer's), as auth does. */
export async function announce(
  deps: IncidentDependencies,
  event: { name: string; company_id: string; payload: Record<string, unknown> },
): Promise<void> {
  const envelope = await deps.db.transaction((tx) => createOutbox('producer').add(tx, event));
  await deps.bus.publish(envelope);
}

export interface StaffMember {
  userId: string;
  companyId: string;
  fullName: string;
  roles: Role[];
  token(): Promise<string>;
}

type Role = 'ADMIN' | 'REVIEWER' | 'HANDLER';

/** A staff member auth announced (user.created), once the incident service knows them. */
export async function announceStaff(
  deps: IncidentDependencies,
  company: { companyId: string },
  fullName: string,
  roles: Role[],
): Promise<StaffMember> {
  const userId = randomUUID();
  await announce(deps, {
    name: 'user.created',
    company_id: company.companyId,
    payload: { user_id: userId, email: `${userId}@corp.example`, full_name: fullName, roles },
  });
  await waitFor(
    async () =>
      (await deps.db.query('select 1 from incident.staff_member where user_id = $1', [userId])).rows.length > 0,
    { what: `${fullName} in the staff read model` },
  );
  return {
    userId,
    companyId: company.companyId,
    fullName,
    roles,
    token: () => staffToken({ userId, companyId: company.companyId, roles }),
  };
}

/** JSON calls with a Bearer token; the answer's status and parsed body. */
/** A staff member with keys, as auth announces them (user.keys_created), once the incident service knows the key. */
export interface KeyedMember extends StaffMember {
  keys: PersonKeys;
  keyId: string;
  fingerprint: string;
}

export async function announceKeys(deps: IncidentDependencies, member: StaffMember): Promise<KeyedMember> {
  const { publicKeys, secret } = await createPersonKeys();
  const keys = await importPersonKeys(secret, publicKeys);
  const keyId = randomUUID();
  const fingerprint = await personFingerprint(publicKeys);
  await announce(deps, {
    name: 'user.keys_created',
    company_id: member.companyId,
    payload: { user_id: member.userId, key_id: keyId, ...publicKeys, fingerprint, replaced: false },
  });
  await waitFor(
    async () => (await deps.db.query('select 1 from incident.staff_key where key_id = $1', [keyId])).rows.length > 0,
    { what: `${member.fullName}'s key in the incident service` },
  );
  return { ...member, keys, keyId, fingerprint };
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
  // The answers' shapes are each test's to assert: typing them here would only repeat the contracts loosely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test client reading any JSON answer
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text,
    headers: response.headers,
  };
}

export async function prepareProducer(deps: IncidentDependencies): Promise<void> {
  await migrate(deps.db, 'producer', messagingMigrations('producer'));
}

export interface Report {
  body: Record<string, unknown>;
  credentials: IncidentCredentials;
}

/** A create payload as the report form's browser builds it: fields encrypted to a fresh incident key. */
export async function reportFor(
  company: SeededCompany,
  fields: Record<string, string> = { description: 'Someone moved money' },
  overrides: Record<string, unknown> = {},
): Promise<Report> {
  const credentials = await createIncidentCredentials(company.publicKey);
  const body = {
    url_identifier: company.urlIdentifier,
    category_uuids: [company.categories.fraud, company.categories.bribery],
    location_uuid: company.locations.office,
    ...credentials.payload,
    fields: await encryptReportFields(credentials.incident.publicKey, fields),
    report_anonymously: true,
    ...overrides,
  };
  return { body, credentials };
}

export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/**
 * Files a report (a body from reportFor) as the report form does, and answers what the discloser is told: the
 * case's id and the retrieval id. Anything but 201 throws with the answer.
 */
export async function fileReport(
  baseUrl: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<IncidentCreateResponse> {
  const response = await postJson(`${baseUrl}/api/incident/`, body, headers);
  if (response.status !== 201) throw new Error(`The report answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as IncidentCreateResponse;
}

export const getJson = (url: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });

export function retrievalUrl(baseUrl: string, urlIdentifier: string, retrievalId: string): string {
  return `${baseUrl}/api/incident/discloser?${new URLSearchParams({ url_identifier: urlIdentifier, retrieval_id: retrievalId })}`;
}
