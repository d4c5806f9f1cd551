import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteCategory, updateCategory } from '@whistle/api-client';
import { Spinner, TableScroll, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { LabelDeleteDialog, useLabelActions } from './label-actions';
import { RecipientNamesSection } from './recipient-names.section';
import { RowMenu } from './row-menu.component';

type CompanyCategory = NonNullable<ReturnType<typeof useStaffState>>['company']['categories'][number];

/** /company/settings/categories (ADMIN): reporting labels with their sub-categories, assignees and state. */
export function CategoriesPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const actions = useLabelActions<CompanyCategory>();
  useDocumentTitle(t('categories.title'));
  if (!state) return <Spinner />;

  const { categories, user_profiles: users } = state.company;
  const nameOf = (uuid: string) => users.find((user) => user.uuid === uuid)?.full_name ?? t('categories.formerUser');
  const topLevel = categories.filter((category) => category.parent_uuid === null);

  const toggle = (category: CompanyCategory) =>
    actions.run(category, async () => {
      await updateCategory(session.api, category.uuid, { is_active: !category.is_active });
      return t('categories.updated');
    });
  const confirmDelete = (category: CompanyCategory) =>
    actions.confirmDelete(category, async () => {
      const { outcome } = await deleteCategory(session.api, category.uuid);
      return outcome === 'deleted' ? t('categories.deleted') : t('categories.deactivated');
    });

  return (
    <>
      <h1>{t('categories.title')}</h1>
      <p>{t('categories.intro')}</p>
      <div className="wh-actions">
        <Link className="wh-button wh-button--primary" to="/company/settings/categories/add">
          {t('categories.add')}
        </Link>
      </div>
      <TableScroll label={t('categories.title')}>
        <table className="settings-table">
          <caption className="wh-visually-hidden">{t('categories.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('categories.name')}</th>
              <th scope="col">{t('categories.assignees')}</th>
              <th scope="col">{t('labels.state')}</th>
              <th scope="col">{t('labels.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {topLevel.map((category) => (
              <CategoryRows
                key={category.uuid}
                category={category}
                children_={categories.filter((child) => child.parent_uuid === category.uuid)}
                assignees={category.user_profiles.map(nameOf).join(', ')}
                busy={actions.isBusy(category)}
                onToggle={() => void toggle(category)}
                onDelete={() => actions.askDelete(category)}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
      <RecipientNamesSection shown={state.company.settings.shows_recipient_names ?? false} onSaved={actions.show} />
      <LabelDeleteDialog
        open={actions.deleting !== undefined}
        title={t('categories.deleteTitle', { name: actions.deleting?.name ?? '' })}
        inUse={t('categories.deleteInUse')}
        onConfirm={() => actions.deleting && confirmDelete(actions.deleting)}
        onCancel={actions.cancelDelete}
      />
      {actions.toast}
    </>
  );
}

function CategoryRows({
  category,
  children_,
  assignees,
  busy,
  onToggle,
  onDelete,
}: {
  category: CompanyCategory;
  children_: CompanyCategory[];
  assignees: string;
  busy: boolean;
  onToggle(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('settings');
  const stateOf = (active: boolean) => (active ? t('labels.active') : t('labels.inactive'));
  return (
    <>
      <tr>
        <th scope="row">{category.name}</th>
        <td>{assignees || <span className="settings-muted">{t('categories.noAssignees')}</span>}</td>
        <td>{stateOf(category.is_active)}</td>
        <td>
          <RowMenu
            name={category.name}
            editTo={`/company/settings/categories/edit/${category.uuid}`}
            active={category.is_active}
            busy={busy}
            onToggle={onToggle}
            onDelete={onDelete}
          />
        </td>
      </tr>
      {children_.map((child) => (
        <tr key={child.uuid} className="settings-sub">
          <td>
            <span className="wh-visually-hidden">{t('categories.subOf', { name: category.name })} </span>
            {child.name}
          </td>
          <td />
          <td>{stateOf(child.is_active && category.is_active)}</td>
          <td />
        </tr>
      ))}
    </>
  );
}
