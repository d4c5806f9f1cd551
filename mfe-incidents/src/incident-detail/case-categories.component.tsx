import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCase } from '@whistle/api-client';
import { Button, CategoryPicker } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/**
 * Admins change what a case is about (issue 23): the company's active categories, sub-categories under their
 * parent, the case's own ticked. The server checks the role and that each one is active; the change is on the
 * case's timeline. A case keeps at least one category, as a report must have one.
 */
export function CaseCategories({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { api } = useStaffSession();
  const categories = (useStaffState()?.company.categories ?? []).filter((category) => category.is_active);
  const { view } = opened;
  const current = view.management_categories.map((category) => category.uuid);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [error, setError] = useState<'required' | 'failed' | null>(null);
  const [busy, setBusy] = useState(false);
  if (!view.permissions.change_categories) return null;

  if (chosen === null)
    return (
      <div className="wh-actions">
        <Button variant="secondary" onClick={() => setChosen(current)}>
          {t('categories.change')}
        </Button>
      </div>
    );

  async function save() {
    if (!chosen || chosen.length === 0) return setError('required');
    setBusy(true);
    setError(null);
    try {
      await updateCase(api, view.uuid, { category_uuids: chosen });
      setChosen(null);
      await onUpdated();
    } catch {
      setError('failed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="wh-stack">
      <CategoryPicker
        name="case_category_uuids"
        legend={t('categories.legend')}
        categories={categories}
        selected={chosen}
        onChange={setChosen}
        error={error ? t(`categories.${error}`) : undefined}
      />
      <div className="wh-actions">
        <Button busy={busy} onClick={() => void save()}>
          {t('categories.save')}
        </Button>
        <Button variant="secondary" onClick={() => setChosen(null)}>
          {t('actions.cancel')}
        </Button>
      </div>
    </div>
  );
}
