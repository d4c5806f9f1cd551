import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { Button, Spinner, Toast, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { MyMailsSection } from './my-mails.section';
import { PasswordSection } from './password.section';
import { ProfileSection } from './profile.section';
import { UnlockMethodsSection } from './unlock-methods.section';

/** What the MFA dialog (child route) needs from the page. */
export interface AccountOutletContext {
  onMfaEnabled(): void;
}

/** Whether MFA is on, and the way to the set-up dialog (the child route `mfa`). */
function MfaSection({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  return (
    <section className="wh-card" aria-labelledby="account-mfa">
      <h2 id="account-mfa">{t('account.mfaTitle')}</h2>
      <p>{enabled ? t('account.mfaEnabled') : t('account.mfaDisabled')}</p>
      <div className="wh-actions">
        <Button variant="secondary" onClick={() => navigate('mfa')}>
          {enabled ? t('account.updateMfa') : t('account.enableMfa')}
        </Button>
      </div>
    </section>
  );
}

/** /company/settings/account: full name, read-only e-mail, password change, unlock methods, MFA set-up, own e-mails. */
export function AccountPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const [toast, setToast] = useState<string>();
  useDocumentTitle(t('account.title'));
  if (!state) return <Spinner />;

  const updated = () => setToast(t('account.updated'));
  const outletContext: AccountOutletContext = {
    onMfaEnabled: () => {
      void session.reloadStaff();
      updated();
    },
  };
  return (
    <>
      <h1>{t('account.title')}</h1>
      <ProfileSection profile={state.profile} onSaved={updated} />
      <PasswordSection onSaved={updated} />
      <UnlockMethodsSection />
      <MfaSection enabled={Boolean(state.profile.mfa_auth_factor_id)} />
      <MyMailsSection onSaved={updated} />
      <Outlet context={outletContext} />
      {toast && (
        <Toast status="success" onDismiss={() => setToast(undefined)} dismissLabel={t('account.dismiss')}>
          {toast}
        </Toast>
      )}
    </>
  );
}
