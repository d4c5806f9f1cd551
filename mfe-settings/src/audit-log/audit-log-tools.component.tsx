import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportAuditLog, verifyAuditLog, type AuditLogParams } from '@whistle/api-client';
import type { AuditVerification } from '@whistle/contracts';
import { Button } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

/** `audit-log-2026-11-24.csv` */
const fileName = () => `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;

/** Hands the server's CSV to the browser's download. */
function save(csv: Blob) {
  const url = URL.createObjectURL(csv);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName();
  link.click();
  // The click has started the download: the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

type Run<T> = { phase: 'idle' } | { phase: 'running' } | { phase: 'done'; result: T } | { phase: 'failed' };

function VerificationResult({ verification }: { verification: AuditVerification }) {
  const { t } = useTranslation('settings');
  if (verification.intact) return <p role="status">{t('auditLog.intact', { count: verification.checked })}</p>;
  return (
    <div className="wh-alert" role="alert">
      {verification.first_broken && (
        <p>
          {t('auditLog.broken', { sequence: verification.first_broken.sequence, uuid: verification.first_broken.uuid })}
        </p>
      )}
      {verification.truncated && <p>{t('auditLog.truncated')}</p>}
    </div>
  );
}

/**
 * 'Export CSV' (the server's CSV of the filtered log, fetched with the Bearer token) and 'Verify
 * integrity' (the company's hash chain checked link by link on the server).
 */
export function AuditLogTools({ filters }: { filters: AuditLogParams }) {
  const { t } = useTranslation('settings');
  const { api } = useStaffSession();
  const [exported, setExported] = useState<Run<null>>({ phase: 'idle' });
  const [verified, setVerified] = useState<Run<AuditVerification>>({ phase: 'idle' });

  async function exportCsv() {
    setExported({ phase: 'running' });
    try {
      const { page: _page, ...wholeLog } = filters;
      save(await exportAuditLog(api, wholeLog));
      setExported({ phase: 'done', result: null });
    } catch {
      setExported({ phase: 'failed' });
    }
  }

  async function verify() {
    setVerified({ phase: 'running' });
    try {
      setVerified({ phase: 'done', result: await verifyAuditLog(api) });
    } catch {
      setVerified({ phase: 'failed' });
    }
  }

  return (
    <div className="wh-stack">
      <div className="wh-actions">
        <Button variant="secondary" busy={exported.phase === 'running'} onClick={() => void exportCsv()}>
          {t('auditLog.export')}
        </Button>
        <Button variant="secondary" busy={verified.phase === 'running'} onClick={() => void verify()}>
          {t('auditLog.verify')}
        </Button>
      </div>
      {exported.phase === 'done' && <p role="status">{t('auditLog.exported')}</p>}
      {exported.phase === 'failed' && (
        <p className="wh-alert" role="alert">
          {t('auditLog.exportFailed')}
        </p>
      )}
      {verified.phase === 'done' && <VerificationResult verification={verified.result} />}
      {verified.phase === 'failed' && (
        <p className="wh-alert" role="alert">
          {t('auditLog.verifyFailed')}
        </p>
      )}
    </div>
  );
}
