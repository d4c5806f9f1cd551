import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@whistle/ui';

export interface FingerprintCheck {
  fullName: string;
  fingerprint: string;
  /** What follows the comparison: granting the company key (and confirming the key), or confirming the key only. */
  purpose: 'grant' | 'endorse';
}

/**
 * The step before the company key is wrapped to someone, or their key is confirmed as the case team's for the
 * reporters' pages (docs/security.md, "Signed staff messages"): the admin compares the fingerprint shown here with the one
 * the person reads from their own screen over another channel. A server handing other keys than the person's would
 * show a fingerprint the person cannot read out; only the admin's comparison catches it.
 */
export function CompareFingerprintDialog({
  check,
  onConfirm,
  onCancel,
}: {
  check: FingerprintCheck | undefined;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('settings');
  const [matches, setMatches] = useState(false);
  const checkboxId = useId();
  const close = (then: () => void) => () => {
    setMatches(false);
    then();
  };
  return (
    <ConfirmDialog
      open={Boolean(check)}
      title={t('reportAccess.compareTitle', { name: check?.fullName })}
      confirmLabel={t(check?.purpose === 'endorse' ? 'reportAccess.confirmKey' : 'reportAccess.grant')}
      cancelLabel={t('reportAccess.cancel')}
      confirmDisabled={!matches}
      onConfirm={close(onConfirm)}
      onCancel={close(onCancel)}
    >
      <p>
        {t(check?.purpose === 'endorse' ? 'reportAccess.confirmHow' : 'reportAccess.compareHow', {
          name: check?.fullName,
        })}
      </p>
      <p className="settings-fingerprint settings-fingerprint--large" translate="no">
        {check?.fingerprint}
      </p>
      <p>
        <input
          id={checkboxId}
          type="checkbox"
          checked={matches}
          onChange={(event) => setMatches(event.target.checked)}
        />{' '}
        <label htmlFor={checkboxId}>{t('reportAccess.compareMatches', { name: check?.fullName })}</label>
      </p>
    </ConfirmDialog>
  );
}
