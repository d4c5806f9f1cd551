import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MenuButton, type MenuItem } from '@whistle/ui';

/**
 * A settings row's actions (a reporting label, a location, a reply template) in one menu: edit (its form), activate
 * or deactivate when the row has a state, and delete in the danger style (after a confirmation, `onDelete`).
 */
export function RowMenu({
  name,
  editTo,
  active,
  busy,
  onToggle,
  onDelete,
}: {
  name: string;
  editTo: string;
  /** The row's state, when it can be switched. */
  active?: boolean;
  busy: boolean;
  onToggle?(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const items: MenuItem[] = [
    { label: t('actions.edit'), onSelect: () => void navigate(editTo) },
    ...(onToggle && active !== undefined
      ? [{ label: active ? t('actions.deactivate') : t('actions.activate'), onSelect: onToggle }]
      : []),
    { label: t('actions.delete'), onSelect: onDelete, danger: true },
  ];
  return (
    <MenuButton
      label={t('labels.actions')}
      ariaLabel={t('labels.actionsFor', { name })}
      items={items}
      disabled={busy}
    />
  );
}
