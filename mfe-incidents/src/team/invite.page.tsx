import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fieldErrorsOf, inviteMember } from '@whistle/api-client';
import { Button, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { type PageToastState, useStaffSession } from '@whistle/ui/staff';
import { ROLES, type TeamRole } from './roles';

type Field = 'email' | 'full_name' | 'roles';

/** /company/team/add (ADMIN): e-mail, name and roles; the member gets an invitation with a set-password link. */
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
        await inviteMember(session.api, { email, full_name: fullName, roles });
        await session.reloadStaff();
        const toast: PageToastState = { toast: t('team.invitationSent', { email }) };
        await navigate('/company/team', { state: toast });
      },
      {
        recover: (error) => {
          const refused = fieldErrorsOf(error);
          if (refused)
            setErrors({ email: refused.email?.[0], full_name: refused.full_name?.[0], roles: refused.roles?.[0] });
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
