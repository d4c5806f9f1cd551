import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, requestPasswordReset } from '@whistle/api-client';
import { Button, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { api } from '../../api';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** /company/password/reset: the same answer whether or not the address has an account. */
export function PasswordResetPage() {
  const { t } = useTranslation(['shell', 'common']);
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState(false);
  const request = useAction();
  useDocumentTitle(t('passwordReset.title'));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    if (!email) return setError(t('common:validation.required'));
    if (!EMAIL.test(email)) return setError(t('common:validation.email'));
    setError(undefined);
    await request.run(
      async () => {
        await requestPasswordReset(api, email);
        setSent(true);
      },
      {
        recover: (caught) => {
          const tooMany = caught instanceof ApiError && caught.status === 429;
          if (tooMany) setError(t('passwordReset.tooMany'));
          return tooMany;
        },
      },
    );
  }

  return (
    <section className="wh-card" aria-labelledby="reset-title">
      <h1 id="reset-title">{t('passwordReset.title')}</h1>
      {sent ? (
        <p role="status">{t('passwordReset.sent')}</p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={request.busy || undefined}>
          <p>{t('passwordReset.intro')}</p>
          <TextField name="email" type="email" label={t('login.email')} autoComplete="email" required error={error} />
          <div className="wh-actions">
            <Button type="submit" busy={request.busy}>
              {t('passwordReset.submit')}
            </Button>
          </div>
        </form>
      )}
      <p>
        <Link to="/company/login">{t('passwordReset.backToLogin')}</Link>
      </p>
    </section>
  );
}
