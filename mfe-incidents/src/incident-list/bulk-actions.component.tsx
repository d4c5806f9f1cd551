import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getTeamKeys, type StaffSession } from '@whistle/api-client';
import type { IncidentListItem, TeamKeysResponse } from '@whistle/contracts';
import { Button } from '@whistle/ui';
import { useStaffState } from '@whistle/ui/staff';
import { peopleWithoutKeys, useTeamKeys } from '../case/case-grants';
import { PeoplePicker } from '../incident-detail/people-picker.component';
import { assignCases, type BulkOutcome } from './bulk-assign';
import { ExportStatus, useCsvExport } from './csv-export.component';

type AssignState =
  | { phase: 'idle' }
  | { phase: 'picking'; empty?: boolean }
  | { phase: 'running'; done: number; total: number }
  | { phase: 'done'; outcome: BulkOutcome };

/** What became of a bulk assignment: how many were assigned, and each case that was not, with why. */
function AssignOutcome({ outcome }: { outcome: BulkOutcome }) {
  const { t } = useTranslation('incidents');
  return (
    <>
      {outcome.assigned.length > 0 && <p role="status">{t('bulk.assigned', { count: outcome.assigned.length })}</p>}
      {outcome.failed.length > 0 && (
        <div className="wh-alert" role="alert">
          <p>{t('bulk.notAssigned', { count: outcome.failed.length })}</p>
          <ul>
            {outcome.failed.map((failure) => (
              <li key={failure.uuid}>
                {t('bulk.failure', { number: failure.number, reason: t(`bulk.reasons.${failure.reason}`) })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** Admins' choice of people for the selected cases: the case page's picker and warnings, for several cases. */
function AssignPicker({
  session,
  onSave,
}: {
  session: StaffSession;
  onSave: (ids: string[], team: TeamKeysResponse | undefined) => void;
}) {
  const { t } = useTranslation('incidents');
  const staff = useStaffState();
  const team = useTeamKeys(session.api);
  const withoutKeys = peopleWithoutKeys(team);
  const fingerprints = new Map(team?.people.map((person) => [person.user_id, person.fingerprint ?? undefined]));
  const people = (staff?.company.user_profiles ?? []).map(({ uuid, full_name, roles }) => ({
    uuid,
    full_name,
    roles,
    fingerprint: fingerprints.get(uuid),
  }));
  return (
    <PeoplePicker
      legend={t('bulk.assignLegend')}
      people={people}
      chosen={[]}
      warnings={Object.fromEntries([...withoutKeys].map((id) => [id, t('people.noReportAccess')] as const))}
      onSave={(ids) => onSave(ids, team)}
      saveLabel={t('bulk.assignSave')}
    />
  );
}

/**
 * What can be done with the cases selected in the list: assign them (admins, who hold the company key the grants are
 * made with) and export them (the spec's CSV columns, for those cases only). `onAssigned` gets the outcome once every
 * case was tried: the page reloads and keeps the cases that failed selected.
 */
export function BulkActions({
  session,
  selected,
  sort,
  mayAssign,
  onAssigned,
  onClear,
}: {
  session: StaffSession;
  selected: readonly IncidentListItem[];
  sort: string | undefined;
  mayAssign: boolean;
  onAssigned: (outcome: BulkOutcome) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('incidents');
  const [assign, setAssign] = useState<AssignState>({ phase: 'idle' });
  const exporting = useCsvExport(session);
  const count = selected.length;

  async function run(chosen: string[], shown: TeamKeysResponse | undefined) {
    if (chosen.length === 0) return setAssign({ phase: 'picking', empty: true });
    const items = [...selected];
    setAssign({ phase: 'running', done: 0, total: items.length });
    // Saved before the team's keys came: they are fetched now (the keyring still checks each key's fingerprint).
    const team = shown ?? (await getTeamKeys(session.api).catch(() => undefined));
    const outcome = await assignCases(session.api, session.keyring, team, items, chosen, (done) =>
      setAssign({ phase: 'running', done, total: items.length }),
    );
    setAssign({ phase: 'done', outcome });
    onAssigned(outcome);
  }

  return (
    <section className="case-bulk wh-stack" aria-label={t('bulk.actions')}>
      <p aria-live="polite">{count > 0 ? t('bulk.selected', { count }) : ''}</p>
      {count > 0 && (
        <div className="wh-actions">
          {mayAssign && (
            <Button
              variant="secondary"
              busy={assign.phase === 'running'}
              aria-expanded={assign.phase === 'picking'}
              onClick={() => setAssign(assign.phase === 'picking' ? { phase: 'idle' } : { phase: 'picking' })}
            >
              {t('bulk.assign')}
            </Button>
          )}
          <Button
            variant="secondary"
            busy={exporting.state.phase === 'running'}
            onClick={() => exporting.start({ incident: selected.map((item) => item.uuid), sort })}
          >
            {t('bulk.export')}
          </Button>
          <Button variant="secondary" onClick={onClear}>
            {t('bulk.clear')}
          </Button>
        </div>
      )}
      {count > 0 && assign.phase === 'picking' && (
        <>
          <p className="case-muted">{t('bulk.assignHelp')}</p>
          <AssignPicker session={session} onSave={(ids, team) => void run(ids, team)} />
          {assign.empty && (
            <p className="wh-alert" role="alert">
              {t('bulk.chooseSomeone')}
            </p>
          )}
        </>
      )}
      {assign.phase === 'running' && <p role="status">{t('bulk.assigning', assign)}</p>}
      {assign.phase === 'done' && <AssignOutcome outcome={assign.outcome} />}
      <ExportStatus state={exporting.state} />
    </section>
  );
}
