import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCompany } from '@whistle/api-client';
import { Button, Spinner, TextField, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { fieldErrors, useSettingsToast } from '../settings-feedback';

/** Spec §5: the field's text as an integer, 0 when empty. */
export const parseDeadlineDays = (text: string): number => (text.trim() === '' ? 0 : Number.parseInt(text, 10));

/** /company/settings/deadline (ADMIN): days to resolve a case (default 14), which its resolution clock follows. */
export function DeadlinePage() {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = useSettingsToast();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  useDocumentTitle(t('deadline.title'));
  if (failure) throw failure.error;
  if (!state) return <Spinner />;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const days = parseDeadlineDays(String(new FormData(event.currentTarget).get('resolution_deadline_days') ?? ''));
    if (Number.isNaN(days)) {
      setError(t('deadline.invalid'));
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await updateCompany(session.api, { settings: { resolution_deadline_days: days } });
      await session.reloadStaff();
      show(t('updatedSettings'));
    } catch (caught) {
      const errors = fieldErrors(caught);
      if (!errors) setFailure({ error: caught });
      else setError(errors['settings.resolution_deadline_days']?.[0] ?? t('deadline.invalid'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h1>{t('deadline.title')}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void save(event)} aria-busy={busy || undefined}>
        <p id="deadline-help">{t('deadline.help')}</p>
        <TextField
          name="resolution_deadline_days"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          label={t('deadline.days')}
          defaultValue={String(state.company.settings.resolution_deadline_days)}
          aria-describedby="deadline-help"
          required
          error={error}
        />
        <div className="wh-actions">
          <Button type="submit" busy={busy}>
            {t('actions.save')}
          </Button>
        </div>
      </form>
      {toast}
    </>
  );
}
