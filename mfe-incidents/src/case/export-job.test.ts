/**
 * @jest-environment node
 */
// Node's environment: the export runs in a worker with WebCrypto and a streamed NDJSON answer, as Node has them.
import type { IncidentExportRow } from '@whistle/contracts';
import {
  createIncidentCredentials,
  createPersonKeys,
  encryptReportFields,
  grantIncidentPassphrase,
  importPersonKeys,
} from '@whistle/crypto';
import { listItem, testCompany } from '../../test/staff-fixtures';
import { runExport, type ExportMessage } from './export-job';

const realFetch = global.fetch;
afterEach(() => {
  global.fetch = realFetch;
});

/** A named report's export row; with a grant of it wrapped to `grantedTo` when given. */
async function row(
  company: Awaited<ReturnType<typeof testCompany>>,
  uuid: string,
  name: string,
  grantedTo?: string,
): Promise<IncidentExportRow> {
  const credentials = await createIncidentCredentials(company.publicKey);
  const [field] = await encryptReportFields(credentials.incident.publicKey, { full_name: name });
  const keys = {
    credential: credentials.payload.credential,
    aes_salt: credentials.payload.aes_salt,
    aes_iv: credentials.payload.aes_iv,
    company_encrypted_passphrase: credentials.payload.company_encrypted_passphrase,
  };
  const grant = grantedTo
    ? (
        await grantIncidentPassphrase({
          ...keys,
          companyPrivateKeys: [company.privateKey],
          recipientPublicKeys: [grantedTo],
        })
      )[0]!
    : undefined;
  // A list row holds every column of an export row.
  return listItem({
    uuid,
    display_report_number: Number(uuid.slice(-1)),
    report_anonymously: false,
    full_name: field!.value,
    keys: {
      ...keys,
      my_grant: grant
        ? { key_id: '99999999-9999-4999-8999-999999999999', fingerprint: 'X', wrapped_passphrase: grant }
        : null,
    },
  });
}

describe('the CSV export through per-case grants', () => {
  it("when a handler without the company key exports, then the cases they hold a grant of show the reporter's name and the others do not", async () => {
    const company = await testCompany();
    const { publicKeys, secret } = await createPersonKeys();
    const person = await importPersonKeys(secret, publicKeys);
    const rows = [
      await row(company, '00000000-0000-4000-8000-000000000001', 'Jane Doe', publicKeys.public_key),
      await row(company, '00000000-0000-4000-8000-000000000002', 'John Roe'),
    ];
    global.fetch = jest.fn(
      async () =>
        new Response(rows.map((each) => JSON.stringify(each)).join('\n') + '\n', {
          status: 200,
          headers: { 'content-type': 'application/x-ndjson', 'x-total-count': '2' },
        }),
    ) as unknown as typeof fetch;
    const messages: ExportMessage[] = [];
    await runExport(
      {
        job: 'export',
        baseUrl: 'http://localhost',
        token: 'staff-token',
        query: {},
        person: { decryptionKey: person.decryptionKey, publicKeys },
      },
      (message) => messages.push(message),
    );
    const done = messages.find((message) => message.type === 'done');
    expect(done).toBeDefined();
    const csv = (done as { csv: string }).csv;
    expect(csv).toContain('Jane Doe');
    expect(csv).not.toContain('John Roe');
    expect(csv).toContain('Identified');
  });
});
