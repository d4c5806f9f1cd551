import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError, isCommonPassword, setPasswordWithLink } from '@whistle/api-client';
import { Button, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { api } from '../../api';
import { MIN_PASSWORD_LENGTH } from '../keys/password-rules';
import { newPasswordKeys } from '../keys/password-keys';

type Outcome = 'changed' | 'failed';

/**
 * /company/password/change?token=… (a reset link: spec §2 takes the token from the query string) or
 * /company/password/change#token=… (an invitation link: a fragment never reaches a server or its logs).
 */
export function PasswordChangePage() {
  const { t } = useTranslation(['shell', 'common']);
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(
    () => new URLSearchParams(location.search).get('token') ?? new URLSearchParams(location.hash.slice(1)).get('token'),
  );
  useEffect(() => {
    // The secret leaves the address bar (and so the history and any later Referer) at once.
    if (location.search || location.hash)
      void navigate({ pathname: location.pathname }, { replace: true, state: location.state });
  }, [location, navigate]);
  const [errors, setErrors] = useState<{ password?: string; repeat_password?: string }>({});
  const [outcome, setOutcome] = useState<Outcome>();
  const change = useAction();
  useDocumentTitle(t('passwordChange.title'));

  /** A refused link or password (4xx) is 'Failed to reset password', with the password's own error if any. */
  function refused(caught: unknown) {
    if (!(caught instanceof ApiError) || caught.status >= 500) return false;
    const serverErrors = (caught.body as { errors?: Record<string, string[]> } | undefined)?.errors;
    if (serverErrors?.password) setErrors({ password: serverErrors.password[0] });
    setOutcome('failed');
    return true;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const password = String(form.get('password') ?? '');
    const repeat = String(form.get('repeat_password') ?? '');
    const invalid = {
      // The server never sees the password, so its rules are checked here.
      password: !password
        ? t('common:validation.required')
        : password.length < MIN_PASSWORD_LENGTH
          ? t('onboarding.passwordLength')
          : undefined,
      repeat_password: !repeat
        ? t('common:validation.required')
        : repeat !== password
          ? t('common:validation.passwordsMismatch')
          : undefined,
    };
    setErrors(invalid);
    setOutcome(undefined);
    if (invalid.password || invalid.repeat_password) return;
    // Spec §5: without a token the change cannot succeed.
    if (!token) return setOutcome('failed');
    await change.run(
      async () => {
        if (await isCommonPassword(api, password)) {
          setErrors({ password: t('common:validation.passwordTooCommon') });
          (formElement.elements.namedItem('password') as HTMLElement | null)?.focus();
          return;
        }
        await setPasswordWithLink(api, token, await newPasswordKeys(password));
        setOutcome('changed');
      },
      { recover: refused },
    );
  }

  return (
    <section className="wh-card" aria-labelledby="change-title">
      <h1 id="change-title">{t('passwordChange.title')}</h1>
      {outcome === 'changed' ? (
        <>
          <p role="status">{t('passwordChange.changed')}</p>
          <p>{t('passwordChange.newKeys')}</p>
          <p>
            <Link className="wh-button wh-button--primary" to="/company/login">
              {t('passwordChange.login')}
            </Link>
          </p>
        </>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={change.busy || undefined}>
          <TextField
            name="password"
            type="password"
            label={t('passwordChange.password')}
            autoComplete="new-password"
            required
            error={errors.password}
          />
          <TextField
            name="repeat_password"
            type="password"
            label={t('passwordChange.repeatPassword')}
            autoComplete="new-password"
            required
            error={errors.repeat_password}
          />
          {outcome === 'failed' && (
            <p className="wh-alert" role="alert">
              {t('passwordChange.failed')}
            </p>
          )}
          <div className="wh-actions">
            <Button type="submit" busy={change.busy}>
              {t('passwordChange.submit')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
