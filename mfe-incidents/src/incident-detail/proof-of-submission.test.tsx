import type { i18n } from 'i18next';
import { screen, waitFor } from '@testing-library/react';
import type { IncidentStaffView, ReportField } from '@whistle/contracts';
import { createIncidentCredentials, encryptReportFields, submissionFingerprint } from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { openCasePage } from '../../test/case-page';
import { testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';

/* The proof of submission: the case page's fingerprint is the one on the reporter's receipt. */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
let french: i18n;

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
});
afterAll(() => {
  global.fetch = realFetch;
});

/**
 * One report as the reporter's browser makes it (mfe-disclose's prepareReport: incident credentials for the
 * company key, fields encrypted to the incident key), with the fingerprint its receipt shows (submit-report.ts).
 */
async function reportAndReceipt() {
  const credentials = await createIncidentCredentials(company.publicKey);
  const fields = (await encryptReportFields(credentials.incident.publicKey, {
    description: 'Invoices paid twice',
    location_detail: 'Third floor',
    full_name: 'Jane Doe',
  })) as ReportField[];
  const request = { ...credentials.payload, url_identifier: 'acme', fields, report_anonymously: false };
  return { request, receipt: await submissionFingerprint(request) };
}

/** The case as the incident service answers it for that report (keysOf and the stored fields), as JSON. */
const storedView = (base: IncidentStaffView, request: Awaited<ReturnType<typeof reportAndReceipt>>['request']) =>
  JSON.parse(
    JSON.stringify({
      ...base,
      keys: {
        credential: request.credential,
        aes_salt: request.aes_salt,
        aes_iv: request.aes_iv,
        company_encrypted_passphrase: request.company_encrypted_passphrase,
      },
      // Another order than the form's: the fingerprint does not depend on it.
      fields: [...request.fields].reverse(),
    }),
  ) as IncidentStaffView;

const shownFingerprint = async () => {
  const value = screen.getByText('Proof of submission').nextElementSibling!;
  await waitFor(() => expect(value.textContent).not.toBe('…'));
  return value;
};

describe('the proof of submission on the case page', () => {
  it('when the case is the report as sent, then the page shows the receipt’s fingerprint, explained', async () => {
    const { request, receipt } = await reportAndReceipt();
    await openCasePage({ company, language: english, fetchMock, view: (base) => storedView(base, request) });
    const value = await shownFingerprint();
    expect(value).toHaveTextContent(receipt);
    expect(value).toHaveAttribute('translate', 'no');
    expect(value).toHaveAccessibleDescription(
      'Matches the receipt the reporter holds if the report is unchanged. Files and messages added later are not part of it.',
    );
  });

  it('when the stored report differs from what was sent by one field, then the page’s fingerprint is not the receipt’s', async () => {
    const { request, receipt } = await reportAndReceipt();
    const other = await reportAndReceipt();
    // Another report's location detail in place of this one's: the page cannot open it, and the fingerprint tells.
    const swapped = {
      ...request,
      fields: request.fields.map((field) =>
        field.name === 'location_detail' ? other.request.fields.find((each) => each.name === field.name)! : field,
      ),
    };
    await openCasePage({ company, language: english, fetchMock, view: (base) => storedView(base, swapped) });
    const value = await shownFingerprint();
    expect(value.textContent).toMatch(/^([0-9A-Z]{4} ){7}[0-9A-Z]{4}$/);
    expect(value.textContent).not.toBe(receipt);
  });

  it('when the page is in French, then the line and its explainer are in French', async () => {
    const { request, receipt } = await reportAndReceipt();
    await openCasePage({
      company,
      language: french,
      fetchMock,
      description: 'Invoices paid twice',
      view: (base) => storedView(base, request),
    });
    const value = screen.getByText('Preuve de dépôt').nextElementSibling!;
    await waitFor(() => expect(value).toHaveTextContent(receipt));
    expect(value).toHaveAccessibleDescription(/^Correspond au reçu que détient l’auteur du signalement/);
  });
});
