import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { recordCasePrint } from '@whistle/api-client';
import { Button, formatDateTime } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/**
 * Printing a case (issue 23): paper leaves every control the application has, so each printing is on the case's
 * record (`incident.printed`) and every printed page carries who printed it and when. "Print" records first and
 * prints only once the record is stored; a print started from the browser's own menu is recorded as it starts
 * (it cannot wait) and carries the same mark. The page prints what this browser decrypted: no content is sent.
 */
export function PrintCase({ opened }: { opened: OpenedCase }) {
  const { t, i18n } = useTranslation('incidents');
  const { api } = useStaffSession();
  const name = useStaffState()?.profile.full_name ?? '';
  const incidentUuid = opened.view.uuid;
  const [printedAt, setPrintedAt] = useState<Date | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // Set while "Print" opens the browser's dialog, whose printing it already recorded.
  const recorded = useRef(false);

  useEffect(() => {
    const beforePrint = () => {
      // The mark must be in the page before the browser lays it out for paper.
      flushSync(() => setPrintedAt(new Date()));
      if (recorded.current) recorded.current = false;
      else void recordCasePrint(api, incidentUuid).catch(() => setFailed(true));
    };
    window.addEventListener('beforeprint', beforePrint);
    return () => window.removeEventListener('beforeprint', beforePrint);
  }, [api, incidentUuid]);

  async function print() {
    setBusy(true);
    setFailed(false);
    try {
      await recordCasePrint(api, incidentUuid);
    } catch {
      setFailed(true);
      return;
    } finally {
      setBusy(false);
    }
    recorded.current = true;
    window.print();
  }

  return (
    <>
      <Button variant="secondary" className="case-print-button" busy={busy} onClick={() => void print()}>
        {t('detail.print.action')}
      </Button>
      {failed && (
        <p className="wh-alert case-print-failed" role="alert">
          {t('detail.print.failed')}
        </p>
      )}
      <p className="case-print-mark">
        {printedAt &&
          t('detail.print.mark', {
            name,
            number: opened.view.display_report_number,
            when: formatDateTime(printedAt.toISOString(), i18n.language),
          })}
      </p>
    </>
  );
}
