import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { changePassword, isCommonPassword, updateFullName } from '@whistle/api-client';
import { Button, Spinner, TextField, Toast, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { fieldErrors } from '../settings-feedback';
import { MyMailsSection } from './my-mails.section';

type PasswordField = 'current_password' | 'password' | 'repeat_password';

/** What the MFA dialog (child route) needs from the page. */
export interface AccountOutletContext {
  onMfaEnabled(): void;
}

/** /company/settings/account: full name, read-only e-mail, password change, MFA set-up, own e-mails. */
export function AccountPage() {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const state = useStaffState();
  const navigate = useNavigate();
  const [toast, setToast] = useState<string>();
  const [nameError, setNameError] = useState<string>();
  const [passwordErrors, setPasswordErrors] = useState<Partial<Record<PasswordField, string>>>({});
  const [busy, setBusy] = useState<'name' | 'password'>();
  const [failure, setFailure] = useState<{ error: unknown }>();
  const clearToast = () => setToast(undefined);
  useDocumentTitle(t('account.title'));
  if (failure) throw failure.error;

  const updated = () => setToast(t('account.updated'));

  async function saveName(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fullName = String(new FormData(event.currentTarget).get('full_name') ?? '').trim();
    setNameError(fullName ? undefined : t('common:validation.required'));
    if (!fullName) return;
    setBusy('name');
    try {
      await updateFullName(session.api, fullName);
      await session.reloadStaff();
      updated();
    } catch (error) {
      const errors = fieldErrors(error);
      if (errors?.full_name) setNameError(errors.full_name[0]);
      else setFailure({ error });
    } finally {
      setBusy(undefined);
    }
  }

  async function savePassword(event: FormEvent<HTMLFormElement>) {
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
    setPasswordErrors(invalid);
    if (Object.values(invalid).some(Boolean)) return;
    setBusy('password');
    try {
      if (await isCommonPassword(session.api, password)) {
        setPasswordErrors({ password: t('common:validation.passwordTooCommon') });
        (form.elements.namedItem('password') as HTMLElement | null)?.focus();
        return;
      }
      const { token } = await changePassword(session.api, current, password);
      // The server ended every earlier session, this one included: continue with the new token.
      if (token) await session.replaceToken(token);
      form.reset();
      updated();
    } catch (error) {
      const errors = fieldErrors(error);
      if (errors) setPasswordErrors({ current_password: errors.current_password?.[0], password: errors.password?.[0] });
      else setFailure({ error });
    } finally {
      setBusy(undefined);
    }
  }

  if (!state) return <Spinner />;
  const { profile } = state;
  const outletContext: AccountOutletContext = {
    onMfaEnabled: () => {
      void session.reloadStaff();
      updated();
    },
  };
  return (
    <>
      <h1>{t('account.title')}</h1>
      <section className="wh-card" aria-labelledby="account-profile">
        <h2 id="account-profile">{t('account.profile')}</h2>
        <form noValidate onSubmit={(event) => void saveName(event)} aria-busy={busy === 'name' || undefined}>
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
            <Button type="submit" busy={busy === 'name'}>
              {t('account.save')}
            </Button>
          </div>
        </form>
      </section>
      <section className="wh-card" aria-labelledby="account-password">
        <h2 id="account-password">{t('account.passwordTitle')}</h2>
        <form noValidate onSubmit={(event) => void savePassword(event)} aria-busy={busy === 'password' || undefined}>
          <TextField
            name="current_password"
            type="password"
            label={t('account.currentPassword')}
            autoComplete="current-password"
            required
            error={passwordErrors.current_password}
          />
          <TextField
            name="password"
            type="password"
            label={t('account.newPassword')}
            autoComplete="new-password"
            required
            error={passwordErrors.password}
          />
          <TextField
            name="repeat_password"
            type="password"
            label={t('account.repeatPassword')}
            autoComplete="new-password"
            required
            error={passwordErrors.repeat_password}
          />
          <div className="wh-actions">
            <Button type="submit" busy={busy === 'password'}>
              {t('account.changePassword')}
            </Button>
          </div>
        </form>
      </section>
      <section className="wh-card" aria-labelledby="account-mfa">
        <h2 id="account-mfa">{t('account.mfaTitle')}</h2>
        <p>{profile.mfa_auth_factor_id ? t('account.mfaEnabled') : t('account.mfaDisabled')}</p>
        <div className="wh-actions">
          <Button variant="secondary" onClick={() => navigate('mfa')}>
            {profile.mfa_auth_factor_id ? t('account.updateMfa') : t('account.enableMfa')}
          </Button>
        </div>
      </section>
      <MyMailsSection onSaved={updated} />
      <Outlet context={outletContext} />
      {toast && (
        <Toast status="success" onDismiss={clearToast} dismissLabel={t('account.dismiss')}>
          {toast}
        </Toast>
      )}
    </>
  );
}
