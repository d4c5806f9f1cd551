import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffState } from '@whistle/api-client';
import { Button, TextField } from '@whistle/ui';

export interface SubCategoryRow {
  /** React key: the uuid of a kept sub-category, a local counter for a new one. */
  key: string;
  uuid?: string;
  name: string;
}

/** A label's sub-categories (spec `management_categories`): renamed, removed or added, each one required. */
export function SubCategoriesField({
  rows,
  onChange,
  errors,
}: {
  rows: SubCategoryRow[];
  onChange(rows: SubCategoryRow[]): void;
  /** `sub:{key}` for a row, `management_categories` for the server's word on the whole list. */
  errors: Record<string, string | undefined>;
}) {
  const { t } = useTranslation('settings');
  const [nextKey, setNextKey] = useState(0);
  const addRow = () => {
    onChange([...rows, { key: `new-${nextKey}`, name: '' }]);
    setNextKey(nextKey + 1);
  };
  const renameRow = (key: string, name: string) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, name } : row)));
  const removeRow = (key: string) => onChange(rows.filter((row) => row.key !== key));
  return (
    <fieldset className="settings-checks" aria-describedby="sub-categories-help">
      <legend>{t('categoryForm.subCategories')}</legend>
      <p id="sub-categories-help" className="settings-muted">
        {t('categoryForm.subCategoriesHelp')}
      </p>
      {rows.map((row, index) => (
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
            variant="danger"
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
  );
}

/** Who new reports with the label are assigned to: all reviewers, plus anyone already assigned (spec §6). */
export function AssigneesField({
  users,
  assignees,
  onChange,
  error,
}: {
  users: StaffState['company']['user_profiles'];
  assignees: readonly string[];
  onChange(assignees: string[]): void;
  error: string | undefined;
}) {
  const { t } = useTranslation('settings');
  const offered = users.filter((user) => user.roles.includes('REVIEWER') || assignees.includes(user.uuid));
  const toggle = (uuid: string) =>
    onChange(assignees.includes(uuid) ? assignees.filter((id) => id !== uuid) : [...assignees, uuid]);
  return (
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
            onChange={() => toggle(user.uuid)}
          />
          {user.full_name}
        </label>
      ))}
      {error && (
        <p className="wh-alert" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
