import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { createCategory, updateCategory } from '@whistle/api-client';
import { Button, Spinner, TextField, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { fieldErrors, type ToastState } from '../settings-feedback';

const LIST_PATH = '/company/settings/categories';

interface SubCategoryRow {
  /** React key: the uuid of a kept sub-category, a local counter for a new one. */
  key: string;
  uuid?: string;
  name: string;
}

/**
 * /company/settings/categories/add and …/edit/{categoryUUID} (ADMIN): a label's name, its sub-categories
 * (spec `management_categories`) and who new reports with it are assigned to. The picker offers all
 * reviewers plus users already assigned (spec §6).
 */
export function CategoryFormPage() {
  const { t } = useTranslation(['settings', 'common']);
  const { categoryUuid } = useParams();
  const session = useStaffSession();
  const state = useStaffState();
  const navigate = useNavigate();
  const editing = categoryUuid
    ? state?.company.categories.find((category) => category.uuid === categoryUuid)
    : undefined;
  const [rows, setRows] = useState<SubCategoryRow[]>();
  const [assigned, setAssigned] = useState<string[]>();
  const [nextKey, setNextKey] = useState(0);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  useDocumentTitle(categoryUuid ? t('categoryForm.editTitle') : t('categoryForm.addTitle'));
  if (failure) throw failure.error;
  if (!state) return <Spinner />;
  if (categoryUuid && (!editing || editing.parent_uuid !== null))
    return (
      <>
        <h1>{t('categoryForm.editTitle')}</h1>
        <p className="wh-alert" role="alert">
          {t('categoryForm.notFound')}
        </p>
        <Link to={LIST_PATH}>{t('categoryForm.back')}</Link>
      </>
    );

  const children = state.company.categories.filter((category) => categoryUuid && category.parent_uuid === categoryUuid);
  const subRows = rows ?? children.map((child) => ({ key: child.uuid, uuid: child.uuid, name: child.name }));
  const assignees = assigned ?? editing?.user_profiles ?? [];
  const offered = state.company.user_profiles.filter(
    (user) => user.roles.includes('REVIEWER') || assignees.includes(user.uuid),
  );
  const required = t('common:validation.required');

  const addRow = () => {
    setRows([...subRows, { key: `new-${nextKey}`, name: '' }]);
    setNextKey(nextKey + 1);
  };
  const renameRow = (key: string, name: string) =>
    setRows(subRows.map((row) => (row.key === key ? { ...row, name } : row)));
  const removeRow = (key: string) => setRows(subRows.filter((row) => row.key !== key));
  const toggleAssignee = (uuid: string) =>
    setAssigned(assignees.includes(uuid) ? assignees.filter((id) => id !== uuid) : [...assignees, uuid]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    const invalid: Record<string, string | undefined> = { name: name ? undefined : required };
    for (const row of subRows) if (!row.name.trim()) invalid[`sub:${row.key}`] = required;
    setErrors(invalid);
    if (Object.values(invalid).some(Boolean)) return;
    const management_categories = subRows.map((row) => ({
      ...(row.uuid ? { uuid: row.uuid } : {}),
      name: row.name.trim(),
    }));
    setBusy(true);
    try {
      if (categoryUuid)
        await updateCategory(session.api, categoryUuid, { name, management_categories, user_profiles: assignees });
      else await createCategory(session.api, { name, management_categories, user_profiles: assignees });
      await session.reloadStaff();
      const toast: ToastState = { toast: categoryUuid ? t('categories.edited') : t('categories.added') };
      await navigate(LIST_PATH, { state: toast });
    } catch (error) {
      const serverErrors = fieldErrors(error);
      if (!serverErrors) setFailure({ error });
      else
        setErrors({
          name: serverErrors.name?.[0],
          management_categories: serverErrors.management_categories?.[0],
          user_profiles: serverErrors.user_profiles?.[0],
        });
      setBusy(false);
    }
  }

  return (
    <>
      <h1>{categoryUuid ? t('categoryForm.editTitle') : t('categoryForm.addTitle')}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void save(event)} aria-busy={busy || undefined}>
        <TextField
          name="name"
          label={t('categoryForm.name')}
          defaultValue={editing?.name}
          required
          error={errors.name}
        />
        <fieldset className="settings-checks" aria-describedby="sub-categories-help">
          <legend>{t('categoryForm.subCategories')}</legend>
          <p id="sub-categories-help" className="settings-muted">
            {t('categoryForm.subCategoriesHelp')}
          </p>
          {subRows.map((row, index) => (
            <div className="settings-sub-row" key={row.key}>
              <TextField
                name={`sub-${row.key}`}
                label={t('categoryForm.subCategory', { number: index + 1 })}
                value={row.name}
                onChange={(event) => renameRow(row.key, event.target.value)}
                required
                error={errors[`sub:${row.key}`]}
              />
              <Button
                variant="secondary"
                onClick={() => removeRow(row.key)}
                aria-label={t('categoryForm.removeNamed', { name: row.name || index + 1 })}
              >
                {t('categoryForm.remove')}
              </Button>
            </div>
          ))}
          {errors.management_categories && (
            <p className="wh-alert" role="alert">
              {errors.management_categories}
            </p>
          )}
          <Button variant="secondary" onClick={addRow}>
            {t('categoryForm.addSubCategory')}
          </Button>
        </fieldset>
        <fieldset className="settings-checks">
          <legend>{t('categoryForm.assignees')}</legend>
          <p className="settings-muted">{t('categoryForm.assigneesHelp')}</p>
          {offered.length === 0 && <p>{t('categoryForm.noReviewers')}</p>}
          {offered.map((user) => (
            <label key={user.uuid}>
              <input
                type="checkbox"
                name="user_profiles"
                value={user.uuid}
                checked={assignees.includes(user.uuid)}
                onChange={() => toggleAssignee(user.uuid)}
              />
              {user.full_name}
            </label>
          ))}
          {errors.user_profiles && (
            <p className="wh-alert" role="alert">
              {errors.user_profiles}
            </p>
          )}
        </fieldset>
        <div className="wh-actions">
          <Button type="submit" busy={busy}>
            {t('actions.save')}
          </Button>
          <Link className="wh-button wh-button--secondary" to={LIST_PATH}>
            {t('actions.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}
