import { webcrypto } from 'node:crypto';
import {
  createApiClient,
  NoCaseAccessError,
  type StaffKeyring,
  type StaffSession,
  type StaffState,
} from '@whistle/api-client';
import type { IncidentListItem, IncidentStaffView, ReportField } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  encryptReportFields,
  grantIncidentPassphrase,
  openIncidentAsCompany,
  openIncidentWithGrant,
  personFingerprint,
  signStaffContent,
  unlockCompanyPrivateKey,
  type IncidentCredentials,
  type PersonKeys,
} from '@whistle/crypto';

/** jsdom has no WebCrypto: lend Node's, which is what the browser code calls. */
export function useNodeWebCrypto() {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}

export interface TestCompany {
  publicKey: string;
  privateKey: CryptoKey;
}

/** A company key pair made as onboarding makes it, unlocked as a signed-in browser unlocks it. */
export async function testCompany(): Promise<TestCompany> {
  const { credential, passphrase } = await createCompanyCredentials();
  return {
    publicKey: credential.public_key,
    privateKey: await unlockCompanyPrivateKey({
      aes_encrypted_private_key: credential.aes_encrypted_private_key,
      passphrase,
    }),
  };
}

export const staffState = (roles: string[] = ['ADMIN']) =>
  ({
    profile: {
      uuid: '11111111-1111-4111-8111-111111111111',
      email: 'ada@acme.example',
      full_name: 'Ada Lovelace',
      roles,
      mfa_auth_factor_id: null,
    },
    company: {
      url_identifier: 'acme-corporation',
      languages: { offered: ['en', 'fr', 'de'], default: 'en' },
      categories: [
        { uuid: 'c0000000-0000-4000-8000-000000000001', name: 'Fraud', parent_uuid: null, is_active: true },
        {
          uuid: 'c0000000-0000-4000-8000-000000000002',
          name: 'Bribery',
          parent_uuid: 'c0000000-0000-4000-8000-000000000001',
          is_active: true,
        },
      ],
      locations: [{ uuid: 'l0000000-0000-4000-8000-000000000001', name: 'Head office', is_active: true }],
      user_profiles: [
        { uuid: '11111111-1111-4111-8111-111111111111', full_name: 'Ada Lovelace', roles: ['ADMIN'] },
        { uuid: '22222222-2222-4222-8222-222222222222', full_name: 'Hal Handler', roles: ['HANDLER'] },
      ],
    },
  }) as unknown as StaffState;

/**
 * The shell's keyring as far as this remote uses it, with the real protocol: the company key it holds (read at each
 * call, so a test can unlock it later and `unlock()` tells the subscribers) and, for a handler, the person's own keys
 * (which open their per-case grants); anything else is not this remote's business.
 */
export function testKeyring(
  companyKey: () => CryptoKey | undefined,
  person?: PersonKeys,
  /** The person's fingerprint (personFingerprint of their public keys): with it, `person()` answers their keys. */
  fingerprint?: string,
): StaffKeyring & { unlocked(): void } {
  const listeners = new Set<(state: 'unlocked' | 'locked') => void>();
  const elsewhere = () => Promise.reject(new Error('The shell does this, not this remote'));
  // The shell keeps its pins in IndexedDB, as MACs under the person's keys; here, case id to the key pinned.
  const pins = new Map<string, string>();
  return {
    state: () => (companyKey() || person ? 'unlocked' : 'locked'),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    unlocked: () => listeners.forEach((listener) => listener('unlocked')),
    openCase: async (keys) => {
      if (person && keys.my_grant)
        return openIncidentWithGrant({ ...keys, grant: keys.my_grant.wrapped_passphrase, person });
      const key = companyKey();
      const wrapping = keys.company_encrypted_passphrase;
      if (!key || wrapping === null) throw new NoCaseAccessError();
      return openIncidentAsCompany({ ...keys, company_encrypted_passphrase: wrapping, companyPrivateKey: key });
    },
    grantCase: async (keys, recipients) => {
      const key = companyKey();
      const wrapping = keys.company_encrypted_passphrase;
      if (!key || wrapping === null) throw new NoCaseAccessError();
      for (const recipient of recipients)
        if (
          (await personFingerprint({
            public_key: recipient.publicKey,
            signing_public_key: recipient.signingPublicKey,
          })) !== recipient.fingerprint
        )
          throw new Error("This person's keys do not match the fingerprint shown");
      const wrapped = await grantIncidentPassphrase({
        ...keys,
        company_encrypted_passphrase: wrapping,
        companyPrivateKeys: [key],
        recipientPublicKeys: recipients.map((recipient) => recipient.publicKey),
      });
      return recipients.map((recipient, index) => ({
        user_id: recipient.userId,
        fingerprint: recipient.fingerprint,
        wrapped_passphrase: wrapped[index]!,
      }));
    },
    pinCaseKey: async (incidentUuid, incidentPublicKey) => {
      const pinned = pins.get(incidentUuid);
      if (pinned === undefined) pins.set(incidentUuid, incidentPublicKey);
      return pinned === undefined || pinned === incidentPublicKey ? 'pinned' : 'changed';
    },
    repinCaseKey: async (incidentUuid, incidentPublicKey) => void pins.set(incidentUuid, incidentPublicKey),
    workerMaterial: () => {
      const key = companyKey();
      return key && { companyPrivateKey: key };
    },
    grantMaterial: () => person && { decryptionKey: person.decryptionKey, publicKeys: person.publicKeys },
    signForDiscloser: async (input) => (person ? signStaffContent(person, input) : undefined),
    person: () =>
      person && fingerprint
        ? {
            publicKey: person.publicKeys.public_key,
            signingPublicKey: person.publicKeys.signing_public_key,
            fingerprint,
          }
        : undefined,
    unlockWithPassword: elsewhere,
    unlockWithPasskey: elsewhere,
    unlockWithPassphrase: elsewhere,
    setUpWithPasskey: elsewhere,
    setUpWithPassphrase: elsewhere,
    addPasskey: elsewhere,
    addPassphrase: elsewhere,
    changePassword: elsewhere,
    lock: elsewhere,
    companyKeyStatus: elsewhere,
    approveCompanyKey: elsewhere,
    endorseTeamKey: elsewhere,
    restoreWithRecoveryKit: elsewhere,
    rotateRecoveryKit: elsewhere,
    migrateCompanyKey: elsewhere,
    startCompanyKeyRotation: elsewhere,
  };
}

/** The shell's staff session as a remote receives it: a real API client (fetch is the test's), the keyring. */
export function staffSession(
  privateKey: CryptoKey | undefined,
  state = staffState(),
  person?: PersonKeys,
  fingerprint?: string,
): StaffSession {
  return {
    api: createApiClient({ getToken: () => 'staff-token' }),
    staff: async () => state,
    reloadStaff: async () => state,
    subscribe: () => () => undefined,
    replaceToken: async () => undefined,
    keyring: testKeyring(() => privateKey, person, fingerprint),
  };
}

/** A report as a discloser's browser makes it for `company`, with its fields encrypted. */
export async function encryptedReport(company: TestCompany, fields: Record<string, string>) {
  const credentials: IncidentCredentials = await createIncidentCredentials(company.publicKey);
  return {
    credentials,
    keys: {
      credential: credentials.payload.credential,
      aes_salt: credentials.payload.aes_salt,
      aes_iv: credentials.payload.aes_iv,
      company_encrypted_passphrase: credentials.payload.company_encrypted_passphrase,
    },
    fields: (await encryptReportFields(credentials.incident.publicKey, fields)) as ReportField[],
  };
}

/** The case as an admin's browser opens it (with the company key): its handle holds the case's notes key. */
export function staffHandle(company: TestCompany, report: { credentials: IncidentCredentials }) {
  return openIncidentAsCompany({ ...report.credentials.payload, companyPrivateKey: company.privateKey });
}

const clock = (state: 'done' | 'due' | 'due_soon' | 'overdue') => ({
  due_at: '2026-12-01T10:00:00.000Z',
  done_at: state === 'done' ? '2026-11-25T10:00:00.000Z' : null,
  state,
});

/** A list row as the incident service answers it. */
export function listItem(
  overrides: Partial<IncidentListItem> & Pick<IncidentListItem, 'uuid' | 'keys'>,
): IncidentListItem {
  return {
    display_report_number: 1,
    status: { name: 'NEW' },
    outcome: null,
    report_channel: 'online',
    report_anonymously: true,
    created: '2026-11-20T09:30:00.000Z',
    updated: '2026-11-20T09:30:00.000Z',
    last_activity_at: '2026-11-21T12:00:00.000Z',
    location: { uuid: 'l0000000-0000-4000-8000-000000000001', name: 'Head office' },
    management_categories: [
      { uuid: 'c0000000-0000-4000-8000-000000000001', name: 'Fraud', parent_uuid: null },
      {
        uuid: 'c0000000-0000-4000-8000-000000000002',
        name: 'Bribery',
        parent_uuid: 'c0000000-0000-4000-8000-000000000001',
      },
    ],
    assignees: [],
    clocks: { acknowledgement: clock('overdue'), feedback: clock('due'), resolution: clock('due_soon') },
    full_name: null,
    ...overrides,
  };
}

export function staffView(
  overrides: Partial<IncidentStaffView> & Pick<IncidentStaffView, 'uuid' | 'keys' | 'fields'>,
): IncidentStaffView {
  return {
    ...listItem(overrides),
    status_history: [],
    excluded_users: [],
    linked_cases: [],
    permissions: {
      update_status: true,
      reply: true,
      add_note: true,
      assign: true,
      exclude: true,
      change_categories: true,
    },
    file_token: 'file-token',
    file_token_expires_at: '2026-12-01T10:00:00.000Z',
    ...overrides,
  };
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
