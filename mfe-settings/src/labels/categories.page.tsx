import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteCategory, updateCategory } from '@whistle/api-client';
import { Button, ConfirmDialog, Spinner, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { useSettingsToast } from '../settings-feedback';

type CompanyCategory = NonNullable<ReturnType<typeof useStaffState>>['company']['categories'][number];

/** /company/settings/categories (ADMIN): reporting labels with their sub-categories, assignees and state. */
export function CategoriesPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = useSettingsToast();
  const [deleting, setDeleting] = useState<CompanyCategory>();
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<{ error: unknown }>();
  useDocumentTitle(t('categories.title'));
  if (failure) throw failure.error;
  if (!state) return <Spinner />;

  const { categories, user_profiles: users } = state.company;
  const nameOf = (uuid: string) => users.find((user) => user.uuid === uuid)?.full_name ?? t('categories.formerUser');
  const topLevel = categories.filter((category) => category.parent_uuid === null);

  async function run(categoryUuid: string, work: () => Promise<string>) {
    setBusy(categoryUuid);
    try {
      const message = await work();
      await session.reloadStaff();
      show(message);
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(undefined);
    }
  }

  const toggle = (category: CompanyCategory) =>
    run(category.uuid, async () => {
      await updateCategory(session.api, category.uuid, { is_active: !category.is_active });
      return t('categories.updated');
    });

  const confirmDelete = (category: CompanyCategory) => {
    setDeleting(undefined);
    void run(category.uuid, async () => {
      const { outcome } = await deleteCategory(session.api, category.uuid);
      return outcome === 'deleted' ? t('categories.deleted') : t('categories.deactivated');
    });
  };

  return (
    <>
      <h1>{t('categories.title')}</h1>
      <p>{t('categories.intro')}</p>
      <div className="wh-actions">
        <Link className="wh-button wh-button--primary" to="/company/settings/categories/add">
          {t('categories.add')}
        </Link>
      </div>
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
              busy={busy === category.uuid}
              onToggle={() => void toggle(category)}
              onDelete={() => setDeleting(category)}
            />
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('categories.deleteTitle', { name: deleting?.name ?? '' })}
        confirmLabel={t('actions.delete')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => deleting && confirmDelete(deleting)}
        onCancel={() => setDeleting(undefined)}
      >
        <p>{t('labels.deleteWarning')}</p>
        <p>{t('categories.deleteInUse')}</p>
      </ConfirmDialog>
      {toast}
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
          <div className="settings-row-actions">
            <Link
              className="wh-button wh-button--secondary"
              to={`/company/settings/categories/edit/${category.uuid}`}
              aria-label={t('labels.editNamed', { name: category.name })}
            >
              {t('actions.edit')}
            </Link>
            <Button
              variant="secondary"
              busy={busy}
              onClick={onToggle}
              aria-label={t(category.is_active ? 'labels.deactivateNamed' : 'labels.activateNamed', {
                name: category.name,
              })}
            >
              {category.is_active ? t('actions.deactivate') : t('actions.activate')}
            </Button>
            <Button
              variant="secondary"
              disabled={busy}
              onClick={onDelete}
              aria-label={t('labels.deleteNamed', { name: category.name })}
            >
              {t('actions.delete')}
            </Button>
          </div>
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
