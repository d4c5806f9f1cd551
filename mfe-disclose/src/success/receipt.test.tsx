import { webcrypto } from 'node:crypto';
import { fireEvent, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  encryptReportFields,
  submissionFingerprint,
} from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { Receipt } from './receipt.component';

const CODE = '3f9a12bc44d0e1f29a0b:k3m9-p2q8-x7yz-abcd-0123-4567-89vw';
const SENT_AT = '2026-03-04T10:00:05.000Z';

let english: i18n;
let french: i18n;
let fingerprint: string;
beforeAll(async () => {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
  // A real report's request, as the create page sends it.
  const { credential } = await createCompanyCredentials();
  const credentials = await createIncidentCredentials(credential.public_key);
  const fields = await encryptReportFields(credentials.incident.publicKey, { description: 'Forged invoices' });
  fingerprint = await submissionFingerprint({ ...credentials.payload, fields });
});
afterEach(() => {
  jest.restoreAllMocks();
  document.documentElement.classList.remove('disclose-printing-receipt');
});

const receipt = () => ({ reportNumber: 7, sentAt: SENT_AT, fingerprint });

/** The receipt as a reader sees it: the heading, each row as "label: value", then the notes. */
function shownText(sheet: HTMLElement): string {
  const rows = [...sheet.querySelectorAll('dl > div')].map(
    (row) => `${row.querySelector('dt')!.textContent}: ${row.querySelector('dd')!.textContent}`,
  );
  const notes = [...sheet.querySelectorAll('p')].map((note) => note.textContent);
  return [sheet.querySelector('h2')!.textContent, '', ...rows, '', ...notes, ''].join('\n');
}

/** Presses Download receipt and reads the file the browser was handed. */
async function download(): Promise<{ name: string; text: string; type: string }> {
  const blobs: Blob[] = [];
  URL.createObjectURL = jest.fn((blob: Blob) => {
    blobs.push(blob);
    return 'blob:receipt';
  });
  URL.revokeObjectURL = jest.fn();
  const names: string[] = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  fireEvent.click(screen.getByRole('button', { name: 'Download receipt' }));
  // jsdom's Blob has no text(): read it as a browser would, with a FileReader.
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blobs[0]!);
  });
  return { name: names[0]!, text, type: blobs[0]!.type };
}

describe('the receipt on the success page', () => {
  it('when shown, then it names the company, number, time and fingerprint, and not the secret code', () => {
    renderWithI18n(<Receipt companyName="Acme Corporation" secretCode={CODE} receipt={receipt()} />, english);
    const region = screen.getByRole('region', { name: 'Receipt for your report' });
    const sheet = region.querySelector<HTMLElement>('.disclose-receipt__sheet')!;
    expect(shownText(sheet)).toBe(
      [
        'Receipt for your report',
        '',
        'Company: Acme Corporation',
        'Report number: 7',
        'Sent on: 4 March 2026, 10:00:05 UTC',
        `Fingerprint of the report as sent: ${fingerprint}`,
        '',
        'This confirms the report as sent; files and messages added later are not included.',
        "The company's staff see the same fingerprint on the case page as long as the report is unchanged.",
        '',
      ].join('\n'),
    );
    expect(fingerprint).toMatch(/^([0-9A-Z]{4} ){7}[0-9A-Z]{4}$/);
    expect(region).not.toHaveTextContent(CODE);
    // The choice to add the code carries its warning.
    const withCode = within(region).getByRole('checkbox', { name: 'Put my secret code on the receipt' });
    expect(withCode).not.toBeChecked();
    expect(withCode).toHaveAccessibleDescription(/Anyone who finds a receipt with the secret code on it can read/);
  });

  it('when Download receipt is pressed, then the text file says exactly what the page shows, without the code', async () => {
    renderWithI18n(<Receipt companyName="Acme Corporation" secretCode={CODE} receipt={receipt()} />, english);
    const file = await download();
    expect(file.name).toBe('receipt-7.txt');
    expect(file.type).toBe('text/plain;charset=utf-8');
    expect(file.text).toBe(shownText(document.querySelector('.disclose-receipt__sheet')!));
    expect(file.text).toContain(fingerprint);
    expect(file.text).not.toContain(CODE);
    expect(file.text).not.toContain(CODE.split(':')[1]);
  });

  it('when the discloser asks for the code on it, then the receipt and its file carry the code and the warning', async () => {
    renderWithI18n(<Receipt companyName="Acme Corporation" secretCode={CODE} receipt={receipt()} />, english);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Put my secret code on the receipt' }));
    const sheet = document.querySelector<HTMLElement>('.disclose-receipt__sheet')!;
    expect(within(sheet).getByText(CODE)).toHaveAttribute('translate', 'no');
    expect(within(sheet).getByText(/^Anyone who finds a receipt with the secret code/)).toBeInTheDocument();
    const file = await download();
    expect(file.text).toBe(shownText(sheet));
    expect(file.text).toContain(`Your secret code: ${CODE}`);
  });

  it('when Print receipt is pressed, then the page prints in receipt mode, which ends after the print', () => {
    const modes: boolean[] = [];
    jest
      .spyOn(window, 'print')
      .mockImplementation(() => modes.push(document.documentElement.classList.contains('disclose-printing-receipt')));
    renderWithI18n(<Receipt companyName="Acme Corporation" secretCode={CODE} receipt={receipt()} />, english);
    fireEvent.click(screen.getByRole('button', { name: 'Print receipt' }));
    expect(modes).toEqual([true]);
    window.dispatchEvent(new Event('afterprint'));
    expect(document.documentElement).not.toHaveClass('disclose-printing-receipt');
  });

  it('when the page is in French, then the receipt is in French, its date too', () => {
    renderWithI18n(<Receipt companyName="Acme" secretCode={CODE} receipt={receipt()} />, french);
    const region = screen.getByRole('region', { name: 'Reçu de votre signalement' });
    expect(region).toHaveTextContent('Envoyé le4 mars 2026, 10:00:05 UTC');
    expect(within(region).getByRole('button', { name: 'Télécharger le reçu' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Imprimer le reçu' })).toBeInTheDocument();
  });
});
