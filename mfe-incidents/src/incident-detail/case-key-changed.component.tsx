import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ConfirmDialog } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/**
 * The warning of a case opened with another key than the one this person's browser pinned at their first open
 * (docs/security.md, "Pinned case keys"): what it may mean, that writing to the case is blocked meanwhile, and the
 * acknowledgement that makes the new key the pin — asked twice, since it is what a server that swapped the key wants.
 */
export function CaseKeyChanged({ opened, onTrusted }: { opened: OpenedCase; onTrusted: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { keyring } = useStaffSession();
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState(false);

  async function trust() {
    setConfirming(false);
    setFailed(false);
    try {
      await keyring.repinCaseKey(opened.view.uuid, opened.handle.publicKey);
      await onTrusted();
    } catch {
      setFailed(true);
    }
  }

  return (
    <section className="wh-alert wh-stack" role="alert" aria-labelledby="case-key-changed">
      <h2 id="case-key-changed">{t('caseKey.title')}</h2>
      <p>{t('caseKey.meaning')}</p>
      <p>{t('caseKey.blocked')}</p>
      <p>
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          {t('caseKey.trust')}
        </Button>
      </p>
      {failed && <p>{t('actions.failed')}</p>}
      <ConfirmDialog
        open={confirming}
        title={t('caseKey.confirmTitle')}
        confirmLabel={t('caseKey.confirm')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void trust()}
        onCancel={() => setConfirming(false)}
        danger
      >
        <p>{t('caseKey.confirmText')}</p>
      </ConfirmDialog>
    </section>
  );
}
