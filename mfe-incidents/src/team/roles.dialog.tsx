import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@whistle/ui';
import { ROLES, type TeamRole } from './roles';
import type { Member } from './team-table.component';

/** A member's roles being changed: the roles ticked so far and the server's or the page's objection. */
export interface RolesEdit {
  member: Member;
  roles: TeamRole[];
  error?: string;
}

/** The roles of one member, changed in a dialog; changing one's own roles means signing in again. */
export function RolesDialog({
  editing,
  isOwn,
  onChange,
  onSave,
  onCancel,
}: {
  editing: RolesEdit | undefined;
  isOwn: boolean;
  onChange(editing: RolesEdit): void;
  onSave(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('incidents');
  const toggle = (role: TeamRole) =>
    editing &&
    onChange({
      ...editing,
      error: undefined,
      roles: editing.roles.includes(role) ? editing.roles.filter((held) => held !== role) : [...editing.roles, role],
    });
  return (
    <ConfirmDialog
      open={editing !== undefined}
      title={t('team.rolesTitle', { name: editing?.member.full_name ?? '' })}
      confirmLabel={t('team.save')}
      cancelLabel={t('team.cancel')}
      onConfirm={onSave}
      onCancel={onCancel}
    >
      <fieldset className="case-checks">
        <legend>{t('team.columns.roles')}</legend>
        {ROLES.map((role) => (
          <label key={role}>
            <input type="checkbox" checked={editing?.roles.includes(role) ?? false} onChange={() => toggle(role)} />
            {t(`team.roles.${role}`)}
          </label>
        ))}
      </fieldset>
      {isOwn && <p>{t('team.ownRolesNotice')}</p>}
      {editing?.error && (
        <p className="wh-alert" role="alert">
          {editing.error}
        </p>
      )}
    </ConfirmDialog>
  );
}
