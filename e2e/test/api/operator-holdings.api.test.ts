import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import type { CompanyPublicView } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  createPersonKeys,
  createRecoveryKey,
  decryptContent,
  deriveStaffSecrets,
  encryptReportFields,
  grantCompanyKey,
  newKdfSalt,
  openCompanyKeyWithRecovery,
  openIncidentAsCompany,
  openCompanyKeyGrant,
  openLegacyCompanySecret,
  importCompanyPrivateKey,
  unlockPersonKeys,
  sealCompanyKeyForRecovery,
  sealPersonSecret,
} from '@whistle/crypto';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { fetchCall, onboardingPayload, openCompanyKey, signInBody, unlockOwnKeys } from '@whistle/test-support';
import { onboardAndConfirm, recordingMailbox } from '../../src/company-fixtures';
import { dumpTables } from '../../src/database-dump';
import { startInProcessPlatform, type InProcessPlatform } from '../../src/in-process-platform';

const PASSWORD = 'the admin password 2026';

/** The rows of one table in a `dumpTables` dump (a `schema.table` line, then one JSON row a line). */
function rowsOf<T>(database: string, table: string): T[] {
  const lines = database.split('\n');
  const start = lines.indexOf(table);
  if (start < 0) return [];
  const rows: T[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('{')) break;
    rows.push(JSON.parse(line) as T);
  }
  return rows;
}

/** Every 32-byte value, in base64 or base64url, anywhere in the text: a key, if the server held one. */
function secretsIn(text: string): Uint8Array<ArrayBuffer>[] {
  const found = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const candidate of text.match(/[A-Za-z0-9_+/-]{42,44}={0,2}/g) ?? []) {
    for (const decoded of [Buffer.from(candidate, 'base64'), Buffer.from(candidate, 'base64url')]) {
      if (decoded.length === 32) found.set(decoded.toString('hex'), new Uint8Array(decoded) as Uint8Array<ArrayBuffer>);
    }
  }
  return [...found.values()];
}

/** The KEK's envelope as docs/security.md describes it: `v1.<iv>.<ciphertext+tag>`, AES-256-GCM, the company id as AAD. */
function kekWrap(kek: string, secret: string, companyId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(kek, 'base64'), iv).setAAD(Buffer.from(companyId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return ['v1', iv.toString('base64url'), sealed.toString('base64url')].join('.');
}
function kekUnwrap(kek: Uint8Array, wrapped: string, companyId: string): string | undefined {
  const [version, iv, data] = wrapped.split('.');
  if (version !== 'v1' || !iv || !data) return undefined;
  try {
    const bytes = Buffer.from(data, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(companyId)).setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

const attempt = async <T>(work: () => Promise<T>): Promise<T | undefined> => work().catch(() => undefined);

/**
 * The operator's best try with everything the server holds — the database (every table of every schema), the
 * object store, the mail and the log, and every secret of the environment (the KEK above all). Every 32-byte value
 * found anywhere is tried as every kind of key: the KEK on the company passphrase, a recovery key on the kit's
 * copy, an unlock key on every sealed copy of a person's keys (and then their grants); a 43-character secret as a
 * company passphrase. Whatever opens a company key then opens the cases and their fields. Answers what it read.
 */
async function operatorAttack(holdings: { database: string; others: string[]; secrets: Record<string, string> }) {
  const everything = [holdings.database, ...holdings.others, JSON.stringify(holdings.secrets)].join('\n');
  const keys = secretsIn(everything);
  const passphrases = [...new Set(everything.match(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g) ?? [])];
  const db = holdings.database;
  const companyKeys: CryptoKey[] = [];
  const companies = rowsOf<{
    id: string;
    public_key: string;
    aes_encrypted_private_key: string | null;
    wrapped_passphrase: string | null;
  }>(db, 'auth.company');
  for (const company of companies) {
    // The old way: a KEK unwraps the company passphrase, which opens the company private key.
    const tried = [...passphrases];
    for (const kek of keys) {
      const unwrapped = company.wrapped_passphrase && kekUnwrap(kek, company.wrapped_passphrase, company.id);
      if (unwrapped) tried.unshift(unwrapped);
    }
    if (company.aes_encrypted_private_key)
      for (const passphrase of tried) {
        const secret = await attempt(() =>
          openLegacyCompanySecret({ aes_encrypted_private_key: company.aes_encrypted_private_key!, passphrase }),
        );
        if (secret) companyKeys.push(await importCompanyPrivateKey(secret));
      }
  }
  // The new way: the recovery kit's copy, and the admins' grants through their sealed person keys.
  for (const row of rowsOf<{ public_key: string; recovery_sealed_private_key: string | null }>(
    db,
    'auth.company_key',
  )) {
    for (const key of keys) {
      const secret =
        row.recovery_sealed_private_key &&
        (await attempt(() =>
          openCompanyKeyWithRecovery({ key, text: '' }, row.recovery_sealed_private_key!, row.public_key),
        ));
      if (secret) companyKeys.push(await importCompanyPrivateKey(secret));
    }
  }
  const people = rowsOf<{ user_id: string; public_key: string; signing_public_key: string }>(db, 'auth.person_key');
  const copies = rowsOf<{ user_id: string; sealed_private_keys: string }>(db, 'auth.unlock_method');
  const grants = rowsOf<{ user_id: string; wrapped_private_key: string; key_version: number; company_id: string }>(
    db,
    'auth.company_key_grant',
  );
  const companyPublicKeys = rowsOf<{ company_id: string; version: number; public_key: string }>(db, 'auth.company_key');
  for (const copy of copies) {
    const owner = people.find((person) => person.user_id === copy.user_id)!;
    for (const key of keys) {
      const aes = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
      const person = await attempt(() => unlockPersonKeys(aes, copy.sealed_private_keys, owner));
      if (!person) continue;
      for (const grant of grants.filter((candidate) => candidate.user_id === copy.user_id)) {
        const publicKey = companyPublicKeys.find(
          (row) => row.company_id === grant.company_id && row.version === grant.key_version,
        )!.public_key;
        const secret = await attempt(() => openCompanyKeyGrant(person, grant.wrapped_private_key, publicKey));
        if (secret) companyKeys.push(await importCompanyPrivateKey(secret));
      }
    }
  }
  const read: string[] = [];
  const fields = rowsOf<{ incident_id: string; name: string; value: string }>(db, 'incident.incident_field');
  for (const row of rowsOf<Record<string, string>>(db, 'incident.incident')) {
    for (const companyPrivateKey of companyKeys) {
      const handle = await attempt(() =>
        openIncidentAsCompany({
          companyPrivateKey,
          company_encrypted_passphrase: row.company_encrypted_passphrase,
          credential: { public_key: row.public_key, aes_encrypted_private_key: row.aes_encrypted_private_key },
          aes_salt: row.aes_salt,
          aes_iv: row.aes_iv,
        }),
      );
      if (!handle) continue;
      for (const field of fields.filter((candidate) => candidate.incident_id === row.id)) {
        const text = await attempt(() => decryptContent(handle, field.value, { kind: 'field', name: field.name }));
        if (text !== undefined) read.push(text);
      }
    }
  }
  return { read, companyKeysOpened: companyKeys.length, keysTried: keys.length };
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe.each(testStacks)('what the operator holds opens no report, on %s', (stack) => {
  let test$: TestDependencies;
  let running: InProcessPlatform;
  let baseUrl: string;
  const mailer = createRecordingMailer();

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'audit', 'notification']);
    running = await startInProcessPlatform(test$, { mailer });
    baseUrl = running.baseUrl;
  });
  afterAll(async () => {
    await running?.stop();
    await test$?.dispose();
  });

  const view = async (urlIdentifier: string) =>
    (await (await fetch(`${baseUrl}/api/account/company/${urlIdentifier}`)).json()) as CompanyPublicView;

  /** A report as the discloser's browser files it, the canary in its description. */
  async function report(urlIdentifier: string, canary: string) {
    const company = await waitFor(
      async () => {
        const current = await view(urlIdentifier);
        const accepted = await fetch(`${baseUrl}/api/incident/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(await reportBodyFor(current, canary)),
        });
        if (accepted.status === 201) return (await accepted.json()) as { uuid: string };
        if (!(await accepted.text()).includes('Unknown company')) throw new Error(`report answered ${accepted.status}`);
        return undefined;
      },
      { what: 'the report accepted', intervalMs: 200 },
    );
    return company.uuid;
  }
  async function reportBodyFor(current: CompanyPublicView, canary: string) {
    const credentials = await createIncidentCredentials(current.public_key);
    return {
      url_identifier: current.url_identifier,
      category_uuids: [current.categories.find((category) => category.parent_uuid === null)!.uuid],
      location_uuid: current.locations[0]!.uuid,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, { description: canary }),
      report_anonymously: true,
    };
  }

  /** Everything the server holds, as a thief with the database, the object store, the mail, the log and the secrets has it. */
  async function holdings() {
    const others = [JSON.stringify(test$.deps.logger.entries), JSON.stringify(mailer.sent)];
    for (const file of await filesUnder(running.dataDir)) others.push((await readFile(file)).toString('latin1'));
    return { database: await dumpTables(test$.deps.db), others, secrets: running.secrets };
  }

  test('when a company is onboarded today and reported to, then its admin reads the report and the operator, with every secret of the server, does not', async () => {
    const canary = `CANARY-${randomUUID()}`;
    const email = `ada@op-${randomUUID().slice(0, 8)}.example`;
    const onboarding = await onboardingPayload({ email, password: PASSWORD });
    const url_identifier = await onboardAndConfirm(
      { baseUrl, mailbox: recordingMailbox(mailer.sent) },
      onboarding.payload,
    );
    const incidentId = await report(url_identifier, canary);

    // The admin's browser reads it: the protocol works, so what fails below fails for want of a key.
    const call = fetchCall(baseUrl);
    const token = (
      (await call('POST', '/api/account/token', { body: await signInBody(call, email, PASSWORD) })).body as {
        token: string;
      }
    ).token;
    const person = await unlockOwnKeys(call, token, PASSWORD);
    const companyPrivateKey = await openCompanyKey(call, token, person);
    const view = (await call('GET', `/api/incident/${incidentId}`, { bearer: token })).body as {
      keys: Parameters<typeof openIncidentAsCompany>[0];
      fields: { name: string; value: string }[];
    };
    const handle = await openIncidentAsCompany({ ...view.keys, companyPrivateKey });
    const description = view.fields.find((field) => field.name === 'description')!.value;
    expect(await decryptContent(handle, description, { kind: 'field', name: 'description' })).toBe(canary);

    const taken = await holdings();
    expect(taken.database).toContain(incidentId);
    expect(taken.secrets.KEY_ENCRYPTION_KEY).toBeDefined();
    const attack = await operatorAttack(taken);
    // Dozens of candidate keys tried (the KEK, the token keys, every secret-looking value), none opened anything.
    expect(attack.keysTried).toBeGreaterThan(3);
    expect(attack.read).not.toContain(canary);
    expect(attack).toMatchObject({ read: [], companyKeysOpened: 0 });
  });

  test('when a company from before still has its key kept the old way, then the operator reads its reports — until its admin migrates it, and then no more', async () => {
    const canary = `CANARY-${randomUUID()}`;
    const companyId = randomUUID();
    const adminId = randomUUID();
    const categoryId = randomUUID();
    const locationId = randomUUID();
    const domain = `old-${randomUUID().slice(0, 8)}.example`;
    const email = `admin@${domain}`;
    const urlIdentifier = `oldco-${companyId.slice(0, 8)}`;
    const { credential, passphrase } = await createCompanyCredentials();
    // What the code before this change stored at onboarding, and announced.
    await test$.deps.db.transaction(async (tx) => {
      await tx.query(
        `insert into auth.company (id, url_identifier, name, country, email_domain, public_key, aes_encrypted_private_key, wrapped_passphrase)
         values ($1, $2, 'Oldco', 'FR', $3, $4, $5, $6)`,
        [
          companyId,
          urlIdentifier,
          domain,
          credential.public_key,
          credential.aes_encrypted_private_key,
          kekWrap(running.secrets.KEY_ENCRYPTION_KEY!, passphrase, companyId),
        ],
      );
      await tx.query(
        `insert into auth.company_key (company_id, version, public_key, recovery_sealed_private_key, state) values ($1, 1, $2, null, 'current')`,
        [companyId, credential.public_key],
      );
      await tx.query(
        `insert into auth.user_profile (id, company_id, email, full_name, password_hash, roles) values ($1, $2, $3, 'Old Admin', $4, array['ADMIN'])`,
        [adminId, companyId, email, await hash(PASSWORD, { algorithm: 2 })],
      );
      await tx.query(
        `insert into auth.category (id, company_id, parent_id, name, position) values ($1, $2, null, 'Fraud', 0)`,
        [categoryId, companyId],
      );
      await tx.query(`insert into auth.location (id, company_id, name, position) values ($1, $2, 'Head office', 0)`, [
        locationId,
        companyId,
      ]);
    });
    await test$.deps.bus.publish({
      id: randomUUID(),
      name: 'company.created',
      version: 1,
      company_id: companyId,
      occurred_at: new Date().toISOString(),
      actor: { type: 'STAFF', user_id: adminId },
      payload: {
        company_id: companyId,
        url_identifier: urlIdentifier,
        name: 'Oldco',
        country: 'FR',
        created_by: { user_id: adminId, email },
        categories: [{ uuid: categoryId, name: 'Fraud', parent_uuid: null, is_active: true }],
        locations: [{ uuid: locationId, name: 'Head office', is_active: true }],
      },
    });
    const incidentId = await report(urlIdentifier, canary);
    await waitFor(async () => (await dumpTables(test$.deps.db)).includes(incidentId), { what: 'the report stored' });

    // Before the migration: the KEK opens the company key, and every report with it. This is what the code
    // before this change allowed for every company.
    expect((await operatorAttack(await holdings())).read).toContain(canary);

    // The admin signs in once with the password itself (the account migrates), makes keys, moves the company key.
    const call = fetchCall(baseUrl);
    const kdfSalt = newKdfSalt();
    const { authSecret, unlockKey } = await deriveStaffSecrets(PASSWORD, kdfSalt);
    const signedIn = await call('POST', '/api/account/token', {
      body: {
        username: email,
        password: PASSWORD,
        upgrade: { kdf: 'argon2id-v2', kdf_salt: kdfSalt, auth_secret: authSecret },
      },
    });
    const token = (signedIn.body as { token: string }).token;
    const { publicKeys, secret } = await createPersonKeys();
    expect(
      (
        await call('PUT', '/api/account/profile/keys', {
          bearer: token,
          body: {
            ...publicKeys,
            unlock: { method: 'password', sealed_private_keys: await sealPersonSecret(unlockKey, secret, publicKeys) },
          },
        })
      ).status,
    ).toBe(201);
    const legacy = (
      (await call('GET', '/api/account/company/keys', { bearer: token })).body as {
        legacy: { aes_encrypted_private_key: string; passphrase: string };
      }
    ).legacy;
    const companySecret = await openLegacyCompanySecret(legacy);
    const recovery = await createRecoveryKey();
    expect(
      (
        await call('POST', '/api/account/company/keys/migration', {
          bearer: token,
          body: {
            grant: await grantCompanyKey(companySecret, credential.public_key, publicKeys.public_key),
            aes_encrypted_private_key: await sealCompanyKeyForRecovery(recovery, companySecret, credential.public_key),
          },
        })
      ).status,
    ).toBe(204);

    const after = await operatorAttack(await holdings());
    expect(after.read).not.toContain(canary);
    expect(after.companyKeysOpened).toBe(0);
  });
});
