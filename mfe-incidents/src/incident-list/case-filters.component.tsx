import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ReportChannel } from '@whistle/contracts';
import { SelectField } from '@whistle/ui';
import { useStaffState } from '@whistle/ui/staff';
import { INCIDENT_STATUSES } from '../case/case-vocabulary';
import { NOBODY, assigneeChoiceOf, withAssignee, withFilter, type FilterKey } from './list-query';

const CHANNELS: readonly ReportChannel[] = ['online', 'telephone', 'internal'];

/** A filter that is on or off (assigned to me, overdue). */
function FilterCheckbox({ name, label }: { name: FilterKey; label: string }) {
  const [params, setParams] = useSearchParams();
  return (
    <label className="case-checkbox">
      <input
        type="checkbox"
        checked={params.get(name) === 'true'}
        onChange={(event) => setParams(withFilter(params, name, event.target.checked ? 'true' : ''))}
      />{' '}
      {label}
    </label>
  );
}

/** The list's filters, read from and written to the page URL (so a filtered view can be bookmarked). */
export function CaseFilters() {
  const { t } = useTranslation('incidents');
  const staff = useStaffState();
  const [params, setParams] = useSearchParams();
  const select = (name: FilterKey, label: string, options: { value: string; label: string }[]) => (
    <SelectField
      name={name}
      label={label}
      placeholder={t('filters.all')}
      value={params.get(name) ?? ''}
      onChange={(event) => setParams(withFilter(params, name, event.target.value))}
      options={options}
    />
  );
  const labelled = (values: readonly string[], label: (value: string) => string) =>
    values.map((value) => ({ value, label: label(value) }));
  const named = (items: readonly { uuid: string; name: string }[] = []) =>
    items.map((item) => ({ value: item.uuid, label: item.name }));
  return (
    <form className="case-filters wh-card" aria-label={t('filters.label')} onSubmit={(event) => event.preventDefault()}>
      {select(
        'status',
        t('filters.status'),
        labelled(INCIDENT_STATUSES, (status) => t(`statuses.${status}`)),
      )}
      {select('category', t('filters.category'), named(staff?.company.categories))}
      {select('location', t('filters.location'), named(staff?.company.locations))}
      {select(
        'channel',
        t('filters.channel'),
        labelled(CHANNELS, (channel) => t(`channels.${channel}`)),
      )}
      <SelectField
        name="assignee"
        label={t('filters.assignee')}
        placeholder={t('filters.all')}
        value={assigneeChoiceOf(params)}
        onChange={(event) => setParams(withAssignee(params, event.target.value))}
        options={[
          { value: NOBODY, label: t('filters.unassigned') },
          ...(staff?.company.user_profiles ?? []).map((person) => ({ value: person.uuid, label: person.full_name })),
        ]}
      />
      <FilterCheckbox name="assigned_to_me" label={t('filters.assignedToMe')} />
      <FilterCheckbox name="overdue" label={t('filters.overdue')} />
    </form>
  );
}
