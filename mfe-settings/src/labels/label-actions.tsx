import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, useAction } from '@whistle/ui';
import { usePageToast, useStaffSession } from '@whistle/ui/staff';

interface Label {
  uuid: string;
  name: string;
}

/**
 * What the reporting-label and location lists do alike: run an action on one row (that row's buttons busy),
 * reload the company so every page sees the change, toast what happened; and ask before deleting. A failure
 * is thrown to the page's error boundary.
 */
export function useLabelActions<Row extends Label>() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const { toast, show } = usePageToast(t('dismiss'));
  const action = useAction();
  const [deleting, setDeleting] = useState<Row>();

  /** Runs `work` for the row; its answer is the toast's text. */
  const run = (row: Row, work: () => Promise<string>) =>
    action.run(
      async () => {
        const message = await work();
        await session.reloadStaff();
        show(message);
      },
      { key: row.uuid },
    );

  return {
    toast,
    /** Toasts a message of another form of the page in the same place. */
    show,
    isBusy: (row: Row) => action.isBusy(row.uuid),
    run,
    /** The row whose deletion is being confirmed. */
    deleting,
    askDelete: (row: Row) => setDeleting(row),
    cancelDelete: () => setDeleting(undefined),
    /** Closes the confirmation and runs the deletion. */
    confirmDelete: (row: Row, work: () => Promise<string>) => {
      setDeleting(undefined);
      void run(row, work);
    },
  };
}

/** 'Deleting cannot be undone' (spec §8), with what happens to a label cases still use. */
export function LabelDeleteDialog({
  title,
  inUse,
  open,
  onConfirm,
  onCancel,
}: {
  title: string;
  inUse: string;
  open: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('settings');
  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={t('actions.delete')}
      cancelLabel={t('actions.cancel')}
      danger
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{t('labels.deleteWarning')}</p>
      <p>{inUse}</p>
    </ConfirmDialog>
  );
}
