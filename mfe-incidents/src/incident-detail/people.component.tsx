import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getTeamKeys,
  updateCase,
  type ApiClient,
  type CaseGrantInput,
  type KeyRecipient,
  type StaffKeyring,
} from '@whistle/api-client';
import type { TeamKeysResponse } from '@whistle/contracts';
import { Button, ConfirmDialog, TextField, useLoad } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/** A person as the pickers list them: name, roles, and what to know before choosing them. */
interface Person {
  uuid: string;
  full_name: string;
  roles: readonly string[];
  /** Their keys' fingerprint as the team list gives it: what the case's passphrase is wrapped to on assignment. */
  fingerprint?: string;
}

/** Past this many people, the picker offers a search by name. */
const SEARCH_FROM = 8;

/**
 * Checkboxes of people with their roles, with a save button; `disabled` people are listed but cannot be chosen, and
 * a person with a `warning` has it said beside their name (and read with their checkbox).
 */
function PeoplePicker({
  legend,
  people,
  chosen,
  disabled = [],
  warnings = {},
  onSave,
  saveLabel,
}: {
  legend: string;
  people: readonly Person[];
  chosen: readonly string[];
  disabled?: readonly string[];
  warnings?: Readonly<Record<string, string>>;
  onSave: (ids: string[]) => void;
  saveLabel: string;
}) {
  const { t } = useTranslation('incidents');
  const [selected, setSelected] = useState<string[]>([...chosen]);
  const [query, setQuery] = useState('');
  const idPrefix = useId();
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((each) => each !== id)));
  const words = query.trim().toLocaleLowerCase();
  // The chosen stay listed whatever the search, so nobody is unassigned unseen.
  const shown = people.filter(
    (person) => !words || selected.includes(person.uuid) || person.full_name.toLocaleLowerCase().includes(words),
  );
  return (
    <fieldset className="wh-stack case-people__picker">
      <legend className="wh-field__label">{legend}</legend>
      {people.length > SEARCH_FROM && (
        <TextField
          label={t('people.search')}
          name="person_search"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      {shown.map((person) => {
        const warning = warnings[person.uuid];
        const warningId = `${idPrefix}-${person.uuid}`;
        return (
          <label key={person.uuid} className="case-checkbox">
            <input
              type="checkbox"
              checked={selected.includes(person.uuid)}
              disabled={disabled.includes(person.uuid)}
              aria-describedby={warning ? warningId : undefined}
              onChange={(event) => toggle(person.uuid, event.target.checked)}
            />{' '}
            {person.full_name}{' '}
            <span className="case-muted">{person.roles.map((role) => t(`team.roles.${role}`)).join(', ')}</span>
            {person.fingerprint && (
              <>
                {' '}
                <code className="case-muted" aria-label={t('people.fingerprint')}>
                  {person.fingerprint}
                </code>
              </>
            )}
            {warning && (
              <span id={warningId} className="case-people__warning">
                {warning}
              </span>
            )}
          </label>
        );
      })}
      {shown.length === 0 && <p className="case-muted">{t('people.noMatch')}</p>}
      <div className="wh-actions">
        <Button variant="secondary" onClick={() => onSave(selected)}>
          {saveLabel}
        </Button>
      </div>
    </fieldset>
  );
}

/** The team's keys (public keys and fingerprints), undefined while unknown or when the list cannot be had. */
function useTeamKeys(api: ApiClient): TeamKeysResponse | undefined {
  return useLoad(() => getTeamKeys(api), [api], { shows: () => true }).data;
}

/**
 * The grants to send with an assignment (docs/security.md, "Per-case grants"): the case's passphrase, checked against
 * the case, wrapped to each assignee with keys — those the page shows, each checked by the keyring against the
 * fingerprint shown. None when this person does not hold the company key (they assign; an admin grants).
 */
async function grantsFor(
  keyring: StaffKeyring,
  opened: OpenedCase,
  team: TeamKeysResponse | undefined,
  assignees: readonly string[],
): Promise<CaseGrantInput[]> {
  const recipients: KeyRecipient[] = (team?.people ?? []).flatMap((person) =>
    assignees.includes(person.user_id) && person.public_key && person.signing_public_key && person.fingerprint
      ? [
          {
            userId: person.user_id,
            publicKey: person.public_key,
            signingPublicKey: person.signing_public_key,
            fingerprint: person.fingerprint,
          },
        ]
      : [],
  );
  if (recipients.length === 0 || !keyring.workerMaterial()) return [];
  return keyring.grantCase(opened.view.keys, recipients);
}

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
  // Without keys, nothing can be wrapped to them: assigning them a case gives them one they cannot open.
  const withoutAccess = new Set(
    team?.people.filter((person) => person.public_key === null).map((person) => person.user_id),
  );
  const fingerprints = new Map(team?.people.map((person) => [person.user_id, person.fingerprint ?? undefined]));
  const accessWarnings = Object.fromEntries([...withoutAccess].map((id) => [id, t('people.noReportAccess')] as const));
  const excluded = view.excluded_users.map((user) => user.uuid);

  async function save(update: { assignee_uuids?: string[]; excluded_user_uuids?: string[] }) {
    setFailed(false);
    try {
      // Saved before the team's keys came: they are fetched now (the keyring still checks each key's fingerprint).
      const keys = update.assignee_uuids ? (team ?? (await getTeamKeys(api).catch(() => undefined))) : undefined;
      const grants = update.assignee_uuids ? await grantsFor(keyring, opened, keys, update.assignee_uuids) : [];
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
