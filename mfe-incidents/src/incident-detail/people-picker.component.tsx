import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '@whistle/ui';

/** A person as the pickers list them: name, roles, and what to know before choosing them. */
export interface Person {
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
export function PeoplePicker({
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
