import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, getRetentionPolicy, setRetentionPolicy } from '@whistle/api-client';
import { Button, Spinner, TextField, useAction, useDocumentTitle, useLoad } from '@whistle/ui';
import { usePageToast, useStaffSession } from '@whistle/ui/staff';

/**
 * The server's bounds (packages/contracts retention.ts), repeated rather than imported: the contracts' index
 * would bring zod into this remote. The server checks them again and answers a field error.
 */
const MIN_MONTHS = 1;
const MAX_MONTHS = 120;

/** The field's text as whole months, or undefined when it is not a whole number. */
export const parseRetentionMonths = (text: string): number | undefined =>
  /^\s*\d+\s*$/.test(text) ? Number.parseInt(text, 10) : undefined;

/**
 * /company/settings/retention (ADMIN): how many months closed cases are kept before they are deleted for good
 * with their files (crypto-shredded: docs/security.md), and when the admins are warned.
 */
export function RetentionPage() {
  const { t } = useTranslation('settings');
  const { api } = useStaffSession();
  const { toast, show } = usePageToast(t('dismiss'));
  const { data: policy, replace } = useLoad((signal) => getRetentionPolicy(api, signal), [api]);
  const [error, setError] = useState<string>();
  const save = useAction();
  useDocumentTitle(t('retention.title'));
  if (!policy) return <Spinner />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const months = parseRetentionMonths(String(new FormData(event.currentTarget).get('retention_months') ?? ''));
    if (months === undefined || months < MIN_MONTHS || months > MAX_MONTHS) {
      setError(t('retention.invalid', { min: MIN_MONTHS, max: MAX_MONTHS }));
      return;
    }
    setError(undefined);
    await save.run(
      async () => {
        replace(await setRetentionPolicy(api, { retention_months: months }));
        show(t('updatedSettings'));
      },
      {
        recover: (caught) => {
          const errors = fieldErrorsOf(caught);
          if (errors)
            setError(errors.retention_months?.[0] ?? t('retention.invalid', { min: MIN_MONTHS, max: MAX_MONTHS }));
          return Boolean(errors);
        },
      },
    );
  }

  return (
    <>
      <h1>{t('retention.title')}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <div id="retention-help">
          <p>{t('retention.help')}</p>
          <p>{t('retention.what')}</p>
          <p>{t('retention.warning', { count: policy.warning_days })}</p>
          <p>{t('retention.kept')}</p>
        </div>
        <TextField
          name="retention_months"
          type="number"
          inputMode="numeric"
          min={MIN_MONTHS}
          max={MAX_MONTHS}
          step={1}
          label={t('retention.months')}
          defaultValue={String(policy.retention_months)}
          aria-describedby="retention-help"
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
