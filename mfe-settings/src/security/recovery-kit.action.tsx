import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ConfirmDialog } from '@whistle/ui';
import { RecoveryKitSheet, useStaffSession, type RecoveryKitView } from '@whistle/ui/staff';
import { useKeysFailure } from '../keys-failure';

/**
 * A new recovery kit (a kit lost, or seen by someone who should not hold it): the admin's browser seals the company
 * key under a new recovery key and the server forgets the old copy, so the old kit opens nothing any more. Asked
 * first, then shown once, to be stored before going on (as at onboarding).
 */
export function RecoveryKitAction({ companyName }: { companyName: string }) {
  const { t } = useTranslation('settings');
  const { keyring } = useStaffSession();
  const failure = useKeysFailure();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [kit, setKit] = useState<RecoveryKitView>();
  const [stored, setStored] = useState(false);

  async function rotate() {
    setAsking(false);
    setStored(false);
    setBusy(true);
    await failure.run(async () => setKit(await keyring.rotateRecoveryKit()));
    setBusy(false);
  }

  if (kit)
    return (
      <RecoveryKitSheet
        kit={kit}
        companyName={companyName}
        onConfirmed={() => {
          setKit(undefined);
          setStored(true);
        }}
      />
    );
  return (
    <>
      <h3>{t('reportAccess.kitTitle')}</h3>
      <p>{t('reportAccess.kitIntro')}</p>
      <div className="wh-actions">
        <Button variant="secondary" busy={busy} onClick={() => setAsking(true)}>
          {t('reportAccess.newKit')}
        </Button>
      </div>
      {stored && <p role="status">{t('reportAccess.kitStored')}</p>}
      {failure.message && (
        <p className="wh-alert" role="alert">
          {failure.message}
        </p>
      )}
      <ConfirmDialog
        open={asking}
        title={t('reportAccess.newKitTitle')}
        confirmLabel={t('reportAccess.newKitConfirm')}
        cancelLabel={t('reportAccess.cancel')}
        onConfirm={() => void rotate()}
        onCancel={() => setAsking(false)}
      >
        <p>{t('reportAccess.newKitWarning')}</p>
      </ConfirmDialog>
    </>
  );
}
