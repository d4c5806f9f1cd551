import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button, formatDateTime } from '@whistle/ui';
import type { Submission } from '../session/secret-code.store';
import { downloadText } from './secret-code.component';

/** The receipt's facts, as the success page holds them. */
export interface ReceiptFacts {
  companyName: string;
  receipt: Submission['receipt'];
  /** Only when the discloser asked for it on the receipt. */
  secretCode?: string;
}

export interface ReceiptContent {
  title: string;
  /** `verbatim`: a value to keep exactly as it is (no page translation, left to right). */
  rows: { label: string; value: string; verbatim?: boolean }[];
  notes: string[];
}

/**
 * What the receipt says, once for the page, the printout and the text file: the company, the report number, when it
 * was sent (UTC, so a printout reads the same anywhere), the fingerprint of the report as sent, the secret code only
 * when asked for, and what the fingerprint does and does not cover.
 */
export function receiptContent(facts: ReceiptFacts, t: TFunction<'disclose'>, language: string): ReceiptContent {
  const { receipt } = facts;
  return {
    title: t('success.receipt.title'),
    rows: [
      { label: t('success.receipt.company'), value: facts.companyName },
      { label: t('success.receipt.number'), value: String(receipt.reportNumber) },
      {
        label: t('success.receipt.sentAt'),
        value: `${formatDateTime(receipt.sentAt, language, { timeZone: 'UTC', seconds: true })} UTC`,
      },
      { label: t('success.receipt.fingerprint'), value: receipt.fingerprint, verbatim: true },
      ...(facts.secretCode ? [{ label: t('success.codeLabel'), value: facts.secretCode, verbatim: true }] : []),
    ],
    notes: [
      t('success.receipt.scope'),
      t('success.receipt.check'),
      ...(facts.secretCode ? [t('success.receipt.codeWarning')] : []),
    ],
  };
}

/** The text file: the receipt line by line, as the page shows it. */
export const receiptText = ({ title, rows, notes }: ReceiptContent): string =>
  [title, '', ...rows.map((row) => `${row.label}: ${row.value}`), '', ...notes, ''].join('\n');

/** While set on <html>, the print style sheet prints the receipt alone (disclose.css). */
const PRINTING_RECEIPT = 'disclose-printing-receipt';

/**
 * The proof of submission (issue 26): a receipt to print or download, without the secret code unless the discloser
 * ticks the box, next to a warning of what a receipt with the code gives whoever finds it.
 */
export function Receipt({ companyName, secretCode, receipt }: ReceiptFacts & { secretCode: string }) {
  const { t, i18n } = useTranslation('disclose');
  const [withCode, setWithCode] = useState(false);
  const headingId = useId();
  const warningId = useId();
  const content = receiptContent(
    { companyName, receipt, secretCode: withCode ? secretCode : undefined },
    t,
    i18n.language,
  );

  useEffect(() => {
    const done = () => document.documentElement.classList.remove(PRINTING_RECEIPT);
    window.addEventListener('afterprint', done);
    return () => {
      window.removeEventListener('afterprint', done);
      done();
    };
  }, []);

  function print() {
    document.documentElement.classList.add(PRINTING_RECEIPT);
    window.print();
  }

  return (
    <section className="disclose-receipt" aria-labelledby={headingId}>
      <div className="disclose-receipt__sheet">
        <h2 id={headingId}>{content.title}</h2>
        <dl className="disclose-receipt__rows">
          {content.rows.map((row) => (
            <div key={row.label}>
              <dt>{row.label}</dt>
              {row.verbatim ? (
                <dd className="disclose-receipt__verbatim" translate="no" dir="ltr">
                  {row.value}
                </dd>
              ) : (
                <dd>{row.value}</dd>
              )}
            </div>
          ))}
        </dl>
        {content.notes.map((note) => (
          <p key={note} className="disclose-receipt__note">
            {note}
          </p>
        ))}
      </div>
      <div className="disclose-receipt__controls">
        <label className="disclose-toggle">
          <input
            type="checkbox"
            name="receipt_with_code"
            checked={withCode}
            aria-describedby={warningId}
            onChange={(event) => setWithCode(event.target.checked)}
          />{' '}
          {t('success.receipt.includeCode')}
        </label>
        <p id={warningId} className="disclose-receipt__warning">
          {t('success.receipt.codeWarning')}
        </p>
        <div className="disclose-code__actions">
          <Button
            variant="secondary"
            onClick={() =>
              downloadText(receiptText(content), t('success.receipt.fileName', { number: receipt.reportNumber }))
            }
          >
            {t('success.receipt.download')}
          </Button>
          <Button variant="secondary" onClick={print}>
            {t('success.receipt.print')}
          </Button>
        </div>
      </div>
    </section>
  );
}
