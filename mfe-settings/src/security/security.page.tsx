import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { setCompanyMfaRequired } from '@whistle/api-client';
import { Button, Spinner, useAction, useDocumentTitle } from '@whistle/ui';
import { usePageToast, useStaffSession, useStaffState } from '@whistle/ui/staff';
import { ReportAccessSection } from './report-access.section';

/**
 * /company/settings/security (ADMIN): the company's MFA policy, and who may open reports (ReportAccessSection).
 * What the policy does to members without MFA is the server's: their next sign-in gives a token that reaches only
 * MFA set-up (the shell opens it), and a session already open gets such a token at its next renewal.
 */
export function SecurityPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = usePageToast(t('dismiss'));
  const save = useAction();
  const helpId = useId();
  const membersId = useId();
  useDocumentTitle(t('securityPolicy.title'));
  if (!state) return <Spinner />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const required = new FormData(event.currentTarget).get('mfa_required') === 'on';
    await save.run(async () => {
      await setCompanyMfaRequired(session.api, required);
      await session.reloadStaff();
      show(t('updatedSettings'));
    });
  }

  const withoutMfa = state.company.user_profiles.filter((member) => member.mfa_auth_factor_id === null);
  return (
    <>
      <h1>{t('securityPolicy.title')}</h1>
      <form className="wh-card" onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <fieldset className="settings-checks">
          <legend>{t('securityPolicy.mfaTitle')}</legend>
          <label>
            <input
              type="checkbox"
              role="switch"
              name="mfa_required"
              defaultChecked={state.company.mfa_required}
              aria-describedby={`${helpId} ${membersId}`}
            />
            {t('securityPolicy.mfaRequired')}
          </label>
          <p className="settings-muted settings-help" id={helpId}>
            {t('securityPolicy.mfaHelp')}
          </p>
          <p id={membersId}>
            {withoutMfa.length === 0
              ? t('securityPolicy.everyoneHasMfa')
              : t('securityPolicy.withoutMfa', {
                  count: withoutMfa.length,
                  names: withoutMfa.map((member) => member.full_name).join(', '),
                })}
          </p>
        </fieldset>
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
            {t('securityPolicy.save')}
          </Button>
        </div>
      </form>
      <ReportAccessSection companyName={state.company.name} companyId={state.company.uuid} />
      {toast}
    </>
  );
}
