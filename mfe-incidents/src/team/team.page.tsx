import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { changeMemberRoles, fieldErrorsOf, removeMember, resendInvitation } from '@whistle/api-client';
import { ConfirmDialog, Spinner, useAction, useDocumentTitle } from '@whistle/ui';
import { usePageToast, useStaffSession, useStaffState } from '@whistle/ui/staff';
import { RolesDialog, type RolesEdit } from './roles.dialog';
import { TeamTable, type Member, type MemberActions } from './team-table.component';

/**
 * What an admin does to members: one member's change at a time (that row busy), the company reloaded after
 * it so every page sees it, and its toast.
 */
function useTeamChanges() {
  const { t } = useTranslation('incidents');
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = usePageToast(t('team.dismiss'));
  const action = useAction();
  const [editing, setEditing] = useState<RolesEdit>();
  const [removing, setRemoving] = useState<Member>();

  /** Runs `work` for the member; its answer is the toast's text. */
  const change = (member: Member, work: () => Promise<string>) =>
    action.run(
      async () => {
        const message = await work();
        await session.reloadStaff();
        show(message);
      },
      { key: member.uuid },
    );

  async function saveRoles() {
    if (!editing) return;
    if (editing.roles.length === 0) return setEditing({ ...editing, error: t('team.rolesRequired') });
    await action.run(
      async () => {
        await changeMemberRoles(session.api, editing.member.uuid, editing.roles);
        setEditing(undefined);
        // The caller's own token carried the old roles and is refused now: sign in again.
        if (editing.member.uuid === state?.profile.uuid) return window.location.assign('/company/login');
        await session.reloadStaff();
        show(t('team.rolesUpdated'));
      },
      {
        key: editing.member.uuid,
        recover: (error) => {
          const errors = fieldErrorsOf(error);
          if (errors) setEditing({ ...editing, error: errors.roles?.[0] ?? errors.uuid?.[0] });
          return Boolean(errors);
        },
      },
    );
  }

  const actions: MemberActions = {
    isBusy: (member) => action.isBusy(member.uuid),
    onEditRoles: (member) => setEditing({ member, roles: [...member.roles] }),
    onResend: (member) =>
      void change(member, async () => {
        await resendInvitation(session.api, member.uuid);
        return t('team.invitationResent');
      }),
    onRemove: setRemoving,
  };
  const confirmRemoval = () => {
    const member = removing;
    setRemoving(undefined);
    if (member)
      void change(member, async () => {
        await removeMember(session.api, member.uuid);
        return t('team.removed');
      });
  };
  return { state, toast, actions, editing, setEditing, saveRoles, removing, setRemoving, confirmRemoval };
}

/**
 * /company/team (ADMIN): who works cases, with their roles, MFA and last sign-in; roles changed in a dialog
 * (the company keeps an admin), invitations sent again, members removed after a confirmation.
 */
export function TeamPage() {
  const { t } = useTranslation('incidents');
  const team = useTeamChanges();
  useDocumentTitle(t('team.title'));
  const { state, editing, removing } = team;
  if (!state) return <Spinner />;
  return (
    <>
      <div className="case-toolbar">
        <h1>{t('team.title')}</h1>
        <Link className="wh-button wh-button--primary" to="/company/team/add">
          {t('team.invite')}
        </Link>
      </div>
      <TeamTable state={state} actions={team.actions} />
      <RolesDialog
        editing={editing}
        isOwn={editing?.member.uuid === state.profile.uuid}
        onChange={team.setEditing}
        onSave={() => void team.saveRoles()}
        onCancel={() => team.setEditing(undefined)}
      />
      <ConfirmDialog
        open={removing !== undefined}
        title={t('team.removeTitle', { name: removing?.full_name ?? '' })}
        confirmLabel={t('team.remove')}
        cancelLabel={t('team.cancel')}
        danger
        onConfirm={team.confirmRemoval}
        onCancel={() => team.setRemoving(undefined)}
      >
        <p>{t('team.removeWarning')}</p>
      </ConfirmDialog>
      {team.toast}
    </>
  );
}
