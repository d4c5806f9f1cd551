import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCase } from '@whistle/api-client';
import { Button, ConfirmDialog } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/** Checkboxes of people, with a save button; `disabled` people are listed but cannot be chosen. */
function PeoplePicker({
  legend,
  people,
  chosen,
  disabled = [],
  onSave,
  saveLabel,
}: {
  legend: string;
  people: readonly { uuid: string; full_name: string }[];
  chosen: readonly string[];
  disabled?: readonly string[];
  onSave: (ids: string[]) => void;
  saveLabel: string;
}) {
  const [selected, setSelected] = useState<string[]>([...chosen]);
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((each) => each !== id)));
  return (
    <fieldset className="wh-stack case-people__picker">
      <legend className="wh-field__label">{legend}</legend>
      {people.map((person) => (
        <label key={person.uuid} className="case-checkbox">
          <input
            type="checkbox"
            checked={selected.includes(person.uuid)}
            disabled={disabled.includes(person.uuid)}
            onChange={(event) => toggle(person.uuid, event.target.checked)}
          />{' '}
          {person.full_name}
        </label>
      ))}
      <div className="wh-actions">
        <Button variant="secondary" onClick={() => onSave(selected)}>
          {saveLabel}
        </Button>
      </div>
    </fieldset>
  );
}

/**
 * Who works the case (admins and reviewers assign) and, for admins, who is excluded from it (conflict of
 * interest: an excluded person can neither list, open nor be notified of it). The server enforces both.
 */
export function CasePeople({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { api } = useStaffSession();
  const staff = useStaffState();
  const { view } = opened;
  const [exclusion, setExclusion] = useState<string[] | null>(null);
  const [failed, setFailed] = useState(false);
  const people = (staff?.company.user_profiles ?? []).map(({ uuid, full_name }) => ({ uuid, full_name }));
  const excluded = view.excluded_users.map((user) => user.uuid);

  async function save(update: { assignee_uuids?: string[]; excluded_user_uuids?: string[] }) {
    setFailed(false);
    try {
      await updateCase(api, view.uuid, update);
      await onUpdated();
    } catch {
      setFailed(true);
    }
  }

  return (
    <section className="wh-card wh-stack" aria-labelledby="case-people">
      <h2 id="case-people">{t('people.title')}</h2>
      <p>
        {t('people.assignees')}:{' '}
        {view.assignees.length > 0
          ? view.assignees.map((assignee) => assignee.full_name).join(', ')
          : t('people.nobody')}
      </p>
      {view.permissions.assign && (
        <PeoplePicker
          key={view.assignees.map((assignee) => assignee.uuid).join()}
          legend={t('people.assign')}
          people={people}
          chosen={view.assignees.map((assignee) => assignee.uuid)}
          disabled={excluded}
          onSave={(ids) => void save({ assignee_uuids: ids })}
          saveLabel={t('people.saveAssignees')}
        />
      )}
      {view.permissions.exclude && people.some((person) => person.uuid !== staff?.profile.uuid) && (
        <>
          <PeoplePicker
            key={excluded.join()}
            legend={t('people.exclude')}
            people={people.filter((person) => person.uuid !== staff?.profile.uuid)}
            chosen={excluded}
            onSave={(ids) => setExclusion(ids)}
            saveLabel={t('people.saveExclusions')}
          />
          <ConfirmDialog
            open={exclusion !== null}
            title={t('people.confirmTitle')}
            confirmLabel={t('people.confirm')}
            cancelLabel={t('actions.cancel')}
            onConfirm={() => {
              const ids = exclusion ?? [];
              setExclusion(null);
              void save({ excluded_user_uuids: ids });
            }}
            onCancel={() => setExclusion(null)}
          >
            <p>{t('people.confirmText')}</p>
          </ConfirmDialog>
        </>
      )}
      {failed && (
        <p className="wh-alert" role="alert">
          {t('actions.failed')}
        </p>
      )}
    </section>
  );
}
