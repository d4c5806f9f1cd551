import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, type StaffState, updateFullName } from '@whistle/api-client';
import { Button, TextField, useAction } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

/** The account's full name (required) and its e-mail, which only shows (spec §6: read-only). */
export function ProfileSection({ profile, onSaved }: { profile: StaffState['profile']; onSaved(): void }) {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const [nameError, setNameError] = useState<string>();
  const save = useAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fullName = String(new FormData(event.currentTarget).get('full_name') ?? '').trim();
    setNameError(fullName ? undefined : t('common:validation.required'));
    if (!fullName) return;
    await save.run(
      async () => {
        await updateFullName(session.api, fullName);
        await session.reloadStaff();
        onSaved();
      },
      {
        recover: (error) => {
          const refused = fieldErrorsOf(error)?.full_name;
          if (refused) setNameError(refused[0]);
          return Boolean(refused);
        },
      },
    );
  }

  return (
    <section className="wh-card" aria-labelledby="account-profile">
      <h2 id="account-profile">{t('account.profile')}</h2>
      <form noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <TextField
          name="full_name"
          label={t('account.fullName')}
          defaultValue={profile.full_name}
          autoComplete="name"
          required
          error={nameError}
        />
        <TextField name="email" type="email" label={t('account.email')} value={profile.email} readOnly />
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
            {t('account.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}
