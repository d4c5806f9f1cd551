import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fieldErrorsOf, getMailPreferences, inviteMember, type StaffSession } from '@whistle/api-client';
import { defaultInviteeLanguage, isStaffLanguage, type StaffLanguage } from '@whistle/contracts';
import {
  Button,
  SelectField,
  Spinner,
  STAFF_LANGUAGES,
  TextField,
  languageOptions,
  useAction,
  useDocumentTitle,
  useLoad,
} from '@whistle/ui';
import { type PageToastState, useStaffSession } from '@whistle/ui/staff';
import { ROLES, type TeamRole } from './roles';

type Field = 'email' | 'full_name' | 'roles' | 'language';

/**
 * The language auth gives the new member's mails when the invitation names none (contracts' rule); the admin's own
 * mail language is asked for only when the company's default does not decide.
 */
async function preselectedLanguage(session: StaffSession, signal: AbortSignal): Promise<StaffLanguage> {
  const { company } = await session.staff();
  if (isStaffLanguage(company.languages.default)) return company.languages.default;
  return defaultInviteeLanguage(company.languages.default, (await getMailPreferences(session.api, signal)).language);
}

/** The language of the new member's invitation and later mails, with auth's default preselected. */
function InviteeLanguageField({ error }: { error?: string }) {
  const { t } = useTranslation('incidents');
  const session = useStaffSession();
  const { data: preselected } = useLoad((signal) => preselectedLanguage(session, signal), [session]);
  if (!preselected) return <Spinner />;
  return (
    <SelectField
      name="language"
      label={t('team.mailLanguage')}
      defaultValue={preselected}
      options={languageOptions(STAFF_LANGUAGES)}
      error={error}
    />
  );
}

/**
 * /company/team/add (ADMIN): e-mail, name, roles and mail language; the member gets an invitation with a set-password
 * link, in that language.
 */
export function InvitePage() {
  const { t } = useTranslation(['incidents', 'common']);
  const session = useStaffSession();
  const navigate = useNavigate();
  const [roles, setRoles] = useState<TeamRole[]>(['HANDLER']);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const invitation = useAction();
  useDocumentTitle(t('team.inviteTitle'));

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const email = String(values.get('email') ?? '').trim();
    const fullName = String(values.get('full_name') ?? '').trim();
    const chosen = values.get('language');
    // Sent before the preselection is known, none: auth then picks the same default.
    const language = isStaffLanguage(chosen) ? chosen : undefined;
    const required = t('common:validation.required');
    const invalid = {
      email: email ? undefined : required,
      full_name: fullName ? undefined : required,
      roles: roles.length > 0 ? undefined : required,
    };
    setErrors(invalid);
    if (Object.values(invalid).some(Boolean)) return;
    await invitation.run(
      async () => {
        await inviteMember(session.api, { email, full_name: fullName, roles, language });
        await session.reloadStaff();
        const toast: PageToastState = { toast: t('team.invitationSent', { email }) };
        await navigate('/company/team', { state: toast });
      },
      {
        recover: (error) => {
          const refused = fieldErrorsOf(error);
          if (refused)
            setErrors({
              email: refused.email?.[0],
              full_name: refused.full_name?.[0],
              roles: refused.roles?.[0],
              language: refused.language?.[0],
            });
          return Boolean(refused);
        },
        leaves: true,
      },
    );
  }

  return (
    <>
      <h1>{t('team.inviteTitle')}</h1>
      <form
        className="wh-card"
        noValidate
        onSubmit={(event) => void invite(event)}
        aria-busy={invitation.busy || undefined}
      >
        <TextField
          name="email"
          type="email"
          label={t('team.columns.email')}
          autoComplete="off"
          required
          error={errors.email}
        />
        <TextField
          name="full_name"
          label={t('team.columns.name')}
          autoComplete="off"
          required
          error={errors.full_name}
        />
        <fieldset className="case-checks" aria-describedby="invite-roles-help">
          <legend>{t('team.columns.roles')}</legend>
          <p id="invite-roles-help" className="case-muted">
            {t('team.rolesHelp')}
          </p>
          {ROLES.map((role) => (
            <label key={role}>
              <input
                type="checkbox"
                name="roles"
                value={role}
                checked={roles.includes(role)}
                onChange={() =>
                  setRoles(roles.includes(role) ? roles.filter((held) => held !== role) : [...roles, role])
                }
              />
              {t(`team.roles.${role}`)}
            </label>
          ))}
          {errors.roles && (
            <p className="wh-alert" role="alert">
              {errors.roles}
            </p>
          )}
        </fieldset>
        <InviteeLanguageField error={errors.language} />
        <div className="wh-actions">
          <Button type="submit" busy={invitation.busy}>
            {t('team.sendInvitation')}
          </Button>
          <Link className="wh-button wh-button--secondary" to="/company/team">
            {t('team.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}
