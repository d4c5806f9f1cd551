import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, isCommonPassword } from '@whistle/api-client';
import { Button, TextField, useAction } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

type PasswordField = 'current_password' | 'password' | 'repeat_password';

/** The password change: the current one, the new one twice (spec §5: 'Passwords do not match'). */
export function PasswordSection({ onSaved }: { onSaved(): void }) {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const [errors, setErrors] = useState<Partial<Record<PasswordField, string>>>({});
  const save = useAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    const current = String(values.get('current_password') ?? '');
    const password = String(values.get('password') ?? '');
    const repeat = String(values.get('repeat_password') ?? '');
    const required = t('common:validation.required');
    const invalid = {
      current_password: current ? undefined : required,
      password: password ? undefined : required,
      repeat_password: !repeat ? required : repeat !== password ? t('common:validation.passwordsMismatch') : undefined,
    };
    setErrors(invalid);
    if (Object.values(invalid).some(Boolean)) return;
    await save.run(
      async () => {
        if (await isCommonPassword(session.api, password)) {
          setErrors({ password: t('common:validation.passwordTooCommon') });
          (form.elements.namedItem('password') as HTMLElement | null)?.focus();
          return;
        }
        // The keyring derives both (neither password travels) and seals the keys' password copy again.
        const { token } = await session.keyring.changePassword(current, password);
        // The server ended every earlier session, this one included: continue with the new token.
        if (token) await session.replaceToken(token);
        form.reset();
        onSaved();
      },
      {
        recover: (error) => {
          const refused = fieldErrorsOf(error);
          if (refused) setErrors({ current_password: refused.current_password?.[0], password: refused.password?.[0] });
          return Boolean(refused);
        },
      },
    );
  }

  return (
    <section className="wh-card" aria-labelledby="account-password">
      <h2 id="account-password">{t('account.passwordTitle')}</h2>
      <form noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <TextField
          name="current_password"
          type="password"
          label={t('account.currentPassword')}
          autoComplete="current-password"
          required
          error={errors.current_password}
        />
        <TextField
          name="password"
          type="password"
          label={t('account.newPassword')}
          autoComplete="new-password"
          required
          error={errors.password}
        />
        <TextField
          name="repeat_password"
          type="password"
          label={t('account.repeatPassword')}
          autoComplete="new-password"
          required
          error={errors.repeat_password}
        />
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
            {t('account.changePassword')}
          </Button>
        </div>
      </form>
    </section>
  );
}
