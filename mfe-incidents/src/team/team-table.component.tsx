import { useTranslation } from 'react-i18next';
import type { StaffState } from '@whistle/api-client';
import { Button, formatDateTime, MenuButton, type MenuItem } from '@whistle/ui';

export type Member = StaffState['company']['user_profiles'][number];

export interface MemberActions {
  isBusy(member: Member): boolean;
  onEditRoles(member: Member): void;
  onResend(member: Member): void;
  onRemove(member: Member): void;
}

/** When the member last signed in: still invited, never, or the date and time. */
function LastSignIn({ member }: { member: Member }) {
  const { t, i18n } = useTranslation('incidents');
  if (member.invitation_pending) return <>{t('team.invited')}</>;
  return <>{member.last_sign_in_at ? formatDateTime(member.last_sign_in_at, i18n.language) : t('team.never')}</>;
}

/**
 * A member's actions: one button when there is only one (your own row: change roles), otherwise a menu, so a row
 * never wraps into a stack of buttons; removal in the danger style.
 */
function RowActions({ member, isMe, actions }: { member: Member; isMe: boolean; actions: MemberActions }) {
  const { t } = useTranslation('incidents');
  const busy = actions.isBusy(member);
  const items: MenuItem[] = [
    { label: t('team.editRoles'), onSelect: () => actions.onEditRoles(member) },
    ...(member.invitation_pending ? [{ label: t('team.resend'), onSelect: () => actions.onResend(member) }] : []),
    ...(isMe ? [] : [{ label: t('team.remove'), onSelect: () => actions.onRemove(member), danger: true }]),
  ];
  if (items.length === 1)
    return (
      <Button
        variant="secondary"
        small
        disabled={busy}
        onClick={() => actions.onEditRoles(member)}
        aria-label={t('team.editRolesOf', { name: member.full_name })}
      >
        {t('team.editRoles')}
      </Button>
    );
  return (
    <MenuButton
      label={t('team.columns.actions')}
      ariaLabel={t('team.actionsFor', { name: member.full_name })}
      items={items}
      disabled={busy}
    />
  );
}

function MemberRow({ member, isMe, actions }: { member: Member; isMe: boolean; actions: MemberActions }) {
  const { t } = useTranslation('incidents');
  return (
    <tr>
      <th scope="row">
        {member.full_name}
        {isMe && <span className="case-muted"> {t('team.you')}</span>}
      </th>
      <td data-label={t('team.columns.email')}>{member.email}</td>
      <td data-label={t('team.columns.roles')}>{member.roles.map((role) => t(`team.roles.${role}`)).join(', ')}</td>
      <td data-label={t('team.columns.mfa')}>{member.mfa_auth_factor_id ? t('team.mfaOn') : t('team.mfaOff')}</td>
      <td data-label={t('team.columns.lastSignIn')}>
        <LastSignIn member={member} />
      </td>
      <td data-label={t('team.columns.actions')}>
        <RowActions member={member} isMe={isMe} actions={actions} />
      </td>
    </tr>
  );
}

/** The company's staff: name, e-mail, roles, MFA, last sign-in, and what an admin may do with each. */
export function TeamTable({ state, actions }: { state: StaffState; actions: MemberActions }) {
  const { t } = useTranslation('incidents');
  return (
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
        {state.company.user_profiles.map((member) => (
          <MemberRow key={member.uuid} member={member} isMe={member.uuid === state.profile.uuid} actions={actions} />
        ))}
      </tbody>
    </table>
  );
}
