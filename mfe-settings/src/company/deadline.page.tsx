import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, updateCompany } from '@whistle/api-client';
import { Button, Spinner, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { usePageToast, useStaffSession, useStaffState } from '@whistle/ui/staff';

/** Spec §5: the field's text as an integer, 0 when empty. */
export const parseDeadlineDays = (text: string): number => (text.trim() === '' ? 0 : Number.parseInt(text, 10));

/** /company/settings/deadline (ADMIN): days to resolve a case (default 14), which its resolution clock follows. */
export function DeadlinePage() {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = usePageToast(t('dismiss'));
  const [error, setError] = useState<string>();
  const save = useAction();
  useDocumentTitle(t('deadline.title'));
  if (!state) return <Spinner />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const days = parseDeadlineDays(String(new FormData(event.currentTarget).get('resolution_deadline_days') ?? ''));
    if (Number.isNaN(days)) {
      setError(t('deadline.invalid'));
      return;
    }
    setError(undefined);
    await save.run(
      async () => {
        await updateCompany(session.api, { settings: { resolution_deadline_days: days } });
        await session.reloadStaff();
        show(t('updatedSettings'));
      },
      {
        recover: (caught) => {
          const errors = fieldErrorsOf(caught);
          if (errors) setError(errors['settings.resolution_deadline_days']?.[0] ?? t('deadline.invalid'));
          return Boolean(errors);
        },
      },
    );
  }

  return (
    <>
      <h1>{t('deadline.title')}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
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
          <Button type="submit" busy={save.busy}>
            {t('actions.save')}
          </Button>
        </div>
      </form>
      {toast}
    </>
  );
}
