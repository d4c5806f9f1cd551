import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { createCategory, fieldErrorsOf, updateCategory } from '@whistle/api-client';
import { Button, Spinner, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { type PageToastState, useStaffSession, useStaffState } from '@whistle/ui/staff';
import { AssigneesField, SubCategoriesField, type SubCategoryRow } from './category-fields.component';

const LIST_PATH = '/company/settings/categories';

type Company = NonNullable<ReturnType<typeof useStaffState>>['company'];

/** The label being edited (a top-level category), or undefined when adding one or when it does not exist. */
const editedCategory = (company: Company | undefined, categoryUuid: string | undefined) =>
  categoryUuid ? company?.categories.find((category) => category.uuid === categoryUuid) : undefined;

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
  const editing = editedCategory(state?.company, categoryUuid);
  const [rows, setRows] = useState<SubCategoryRow[]>();
  const [assigned, setAssigned] = useState<string[]>();
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const save = useAction();
  const title = categoryUuid ? t('categoryForm.editTitle') : t('categoryForm.addTitle');
  useDocumentTitle(title);
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

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const required = t('common:validation.required');
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    const invalid: Record<string, string | undefined> = { name: name ? undefined : required };
    for (const row of subRows) if (!row.name.trim()) invalid[`sub:${row.key}`] = required;
    setErrors(invalid);
    if (Object.values(invalid).some(Boolean)) return;
    const management_categories = subRows.map((row) => ({
      ...(row.uuid ? { uuid: row.uuid } : {}),
      name: row.name.trim(),
    }));
    const label = { name, management_categories, user_profiles: assignees };
    await save.run(
      async () => {
        if (categoryUuid) await updateCategory(session.api, categoryUuid, label);
        else await createCategory(session.api, label);
        await session.reloadStaff();
        const toast: PageToastState = { toast: categoryUuid ? t('categories.edited') : t('categories.added') };
        await navigate(LIST_PATH, { state: toast });
      },
      {
        recover: (error) => {
          const serverErrors = fieldErrorsOf(error);
          if (serverErrors)
            setErrors({
              name: serverErrors.name?.[0],
              management_categories: serverErrors.management_categories?.[0],
              user_profiles: serverErrors.user_profiles?.[0],
            });
          return Boolean(serverErrors);
        },
        leaves: true,
      },
    );
  }

  return (
    <>
      <h1>{title}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <TextField
          name="name"
          label={t('categoryForm.name')}
          defaultValue={editing?.name}
          required
          error={errors.name}
        />
        <SubCategoriesField rows={subRows} onChange={setRows} errors={errors} />
        <AssigneesField
          users={state.company.user_profiles}
          assignees={assignees}
          onChange={setAssigned}
          error={errors.user_profiles}
        />
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
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
