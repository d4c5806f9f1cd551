import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getTeamKeys, updateCase } from '@whistle/api-client';
import { ConfirmDialog } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { grantsFor, peopleWithoutKeys, useTeamKeys } from '../case/case-grants';
import { PeoplePicker, type Person } from './people-picker.component';
import type { OpenedCase } from './use-case';

/**
 * Who works the case (admins and reviewers assign) and, for admins, who is excluded from it (conflict of
 * interest: an excluded person can neither list, open nor be notified of it). The server enforces both.
 */
export function CasePeople({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { api, keyring } = useStaffSession();
  const staff = useStaffState();
  const { view } = opened;
  const [exclusion, setExclusion] = useState<string[] | null>(null);
  const [failed, setFailed] = useState(false);
  const people: Person[] = (staff?.company.user_profiles ?? []).map(({ uuid, full_name, roles }) => ({
    uuid,
    full_name,
    roles,
  }));
  const team = useTeamKeys(api);
  const withoutAccess = peopleWithoutKeys(team);
  const fingerprints = new Map(team?.people.map((person) => [person.user_id, person.fingerprint ?? undefined]));
  const accessWarnings = Object.fromEntries([...withoutAccess].map((id) => [id, t('people.noReportAccess')] as const));
  const excluded = view.excluded_users.map((user) => user.uuid);

  async function save(update: { assignee_uuids?: string[]; excluded_user_uuids?: string[] }) {
    setFailed(false);
    try {
      // Saved before the team's keys came: they are fetched now (the keyring still checks each key's fingerprint).
      const keys = update.assignee_uuids ? (team ?? (await getTeamKeys(api).catch(() => undefined))) : undefined;
      const grants = update.assignee_uuids ? await grantsFor(keyring, view.keys, keys, update.assignee_uuids) : [];
      await updateCase(api, view.uuid, grants.length > 0 ? { ...update, grants } : update);
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
          people={people.map((person) => ({ ...person, fingerprint: fingerprints.get(person.uuid) }))}
          chosen={view.assignees.map((assignee) => assignee.uuid)}
          disabled={excluded}
          warnings={accessWarnings}
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
