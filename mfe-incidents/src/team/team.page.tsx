import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { changeMemberRoles, isApiError, removeMember, resendInvitation } from '@whistle/api-client';
import { Button, ConfirmDialog, Spinner, Toast, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { formatDateTime } from '../case/format';
import { ROLES, type TeamRole } from './roles';

type Member = NonNullable<ReturnType<typeof useStaffState>>['company']['user_profiles'][number];

/** What the invite page hands back: the toast to show here. */
export interface TeamToastState {
  toast?: string;
}

/**
 * /company/team (ADMIN): who works cases, with their roles, MFA and last sign-in; roles changed in a dialog
 * (the company keeps an admin), invitations sent again, members removed after a confirmation.
 */
export function TeamPage() {
  const { t, i18n } = useTranslation('incidents');
  const session = useStaffSession();
  const state = useStaffState();
  const location = useLocation();
  const navigate = useNavigate();
  const [toast, setToast] = useState<string>();
  const [editing, setEditing] = useState<{ member: Member; roles: TeamRole[]; error?: string }>();
  const [removing, setRemoving] = useState<Member>();
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<{ error: unknown }>();
  useDocumentTitle(t('team.title'));
  if (failure) throw failure.error;
  if (!state) return <Spinner />;
  const passed = (location.state as TeamToastState | null)?.toast;
  const shown = toast ?? passed;
  const dismiss = () => {
    setToast(undefined);
    if (passed) void navigate(location.pathname, { replace: true, state: null });
  };

  async function run(memberUuid: string, work: () => Promise<string>) {
    setBusy(memberUuid);
    try {
      const message = await work();
      await session.reloadStaff();
      setToast(message);
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(undefined);
    }
  }

  async function saveRoles() {
    if (!editing) return;
    if (editing.roles.length === 0) {
      setEditing({ ...editing, error: t('team.rolesRequired') });
      return;
    }
    setBusy(editing.member.uuid);
    try {
      await changeMemberRoles(session.api, editing.member.uuid, editing.roles);
      setEditing(undefined);
      if (editing.member.uuid === state?.profile.uuid) {
        // The caller's own token carried the old roles and is refused now: sign in again.
        window.location.assign('/company/login');
        return;
      }
      await session.reloadStaff();
      setToast(t('team.rolesUpdated'));
    } catch (error) {
      const errors =
        isApiError(error) && error.status === 400
          ? (error.body as { errors?: Record<string, string[]> }).errors
          : undefined;
      if (errors) setEditing({ ...editing, error: errors.roles?.[0] ?? errors.uuid?.[0] });
      else setFailure({ error });
    } finally {
      setBusy(undefined);
    }
  }

  const toggleRole = (role: TeamRole) =>
    editing &&
    setEditing({
      ...editing,
      error: undefined,
      roles: editing.roles.includes(role) ? editing.roles.filter((held) => held !== role) : [...editing.roles, role],
    });

  return (
    <>
      <div className="case-toolbar">
        <h1>{t('team.title')}</h1>
        <Link className="wh-button wh-button--primary" to="/company/team/add">
          {t('team.invite')}
        </Link>
      </div>
      <table className="case-table">
        <caption className="wh-visually-hidden">{t('team.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('team.columns.name')}</th>
            <th scope="col">{t('team.columns.email')}</th>
            <th scope="col">{t('team.columns.roles')}</th>
            <th scope="col">{t('team.columns.mfa')}</th>
            <th scope="col">{t('team.columns.lastSignIn')}</th>
            <th scope="col">{t('team.columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {state.company.user_profiles.map((member) => {
            const isMe = member.uuid === state.profile.uuid;
            return (
              <tr key={member.uuid}>
                <th scope="row">
                  {member.full_name}
                  {isMe && <span className="case-muted"> {t('team.you')}</span>}
                </th>
                <td data-label={t('team.columns.email')}>{member.email}</td>
                <td data-label={t('team.columns.roles')}>
                  {member.roles.map((role) => t(`team.roles.${role}`)).join(', ')}
                </td>
                <td data-label={t('team.columns.mfa')}>
                  {member.mfa_auth_factor_id ? t('team.mfaOn') : t('team.mfaOff')}
                </td>
                <td data-label={t('team.columns.lastSignIn')}>
                  {member.invitation_pending
                    ? t('team.invited')
                    : member.last_sign_in_at
                      ? formatDateTime(member.last_sign_in_at, i18n.language)
                      : t('team.never')}
                </td>
                <td data-label={t('team.columns.actions')}>
                  <div className="case-actions-row">
                    <Button
                      variant="secondary"
                      disabled={busy === member.uuid}
                      onClick={() => setEditing({ member, roles: [...member.roles] })}
                      aria-label={t('team.editRolesOf', { name: member.full_name })}
                    >
                      {t('team.editRoles')}
                    </Button>
                    {member.invitation_pending && (
                      <Button
                        variant="secondary"
                        busy={busy === member.uuid}
                        onClick={() =>
                          void run(member.uuid, async () => {
                            await resendInvitation(session.api, member.uuid);
                            return t('team.invitationResent');
                          })
                        }
                        aria-label={t('team.resendTo', { name: member.full_name })}
                      >
                        {t('team.resend')}
                      </Button>
                    )}
                    {!isMe && (
                      <Button
                        variant="secondary"
                        disabled={busy === member.uuid}
                        onClick={() => setRemoving(member)}
                        aria-label={t('team.removeNamed', { name: member.full_name })}
                      >
                        {t('team.remove')}
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ConfirmDialog
        open={editing !== undefined}
        title={t('team.rolesTitle', { name: editing?.member.full_name ?? '' })}
        confirmLabel={t('team.save')}
        cancelLabel={t('team.cancel')}
        onConfirm={() => void saveRoles()}
        onCancel={() => setEditing(undefined)}
      >
        <fieldset className="case-checks">
          <legend>{t('team.columns.roles')}</legend>
          {ROLES.map((role) => (
            <label key={role}>
              <input
                type="checkbox"
                checked={editing?.roles.includes(role) ?? false}
                onChange={() => toggleRole(role)}
              />
              {t(`team.roles.${role}`)}
            </label>
          ))}
        </fieldset>
        {editing?.member.uuid === state.profile.uuid && <p>{t('team.ownRolesNotice')}</p>}
        {editing?.error && (
          <p className="wh-alert" role="alert">
            {editing.error}
          </p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={removing !== undefined}
        title={t('team.removeTitle', { name: removing?.full_name ?? '' })}
        confirmLabel={t('team.remove')}
        cancelLabel={t('team.cancel')}
        onConfirm={() => {
          const member = removing;
          setRemoving(undefined);
          if (member)
            void run(member.uuid, async () => {
              await removeMember(session.api, member.uuid);
              return t('team.removed');
            });
        }}
        onCancel={() => setRemoving(undefined)}
      >
        <p>{t('team.removeWarning')}</p>
      </ConfirmDialog>
      {shown && (
        <Toast status="success" onDismiss={dismiss} dismissLabel={t('team.dismiss')}>
          {shown}
        </Toast>
      )}
    </>
  );
}
