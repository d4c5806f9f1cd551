import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { auditActions, auditTableIdentifiers } from '@whistle/contracts';
import { Button, DateField, isIsoDay, SelectField } from '@whistle/ui';
import { useAuditWords, useStaffState } from '@whistle/ui/staff';
import type { FilterValues, FormFilter } from './audit-log-query';

export interface AuditLogFiltersProps {
  /** What the page URL says now; the form starts from it. */
  initial: FilterValues;
  /** The server's messages for the current filters, by parameter. */
  errors: Record<string, string>;
  onApply: (values: FilterValues) => void;
}

/**
 * The audit log's filters: object type, action, member and period. Applied together (a half-typed period
 * asks nothing); the page keeps them in its URL.
 */
export function AuditLogFilters({ initial, errors, onApply }: AuditLogFiltersProps) {
  const { t } = useTranslation('settings');
  const words = useAuditWords();
  const members = useStaffState()?.company.user_profiles ?? [];
  const [values, setValues] = useState(initial);
  const set = (key: FormFilter) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A half-typed or impossible day is not applied: its field says what is wrong.
    if ([values.from, values.to].some((day) => day !== '' && !isIsoDay(day))) return;
    onApply(values);
  };
  const memberOptions = members.map((member) => ({ value: member.uuid, label: member.full_name }));
  // A member removed since keeps their entries: the filter still shows whom it is about.
  if (values.user && !members.some((member) => member.uuid === values.user))
    memberOptions.push({ value: values.user, label: values.user });

  return (
    <form className="wh-card settings-filters" aria-label={t('auditLog.filters')} onSubmit={submit} noValidate>
      <SelectField
        name="table_identifiers"
        label={t('auditLog.objectType')}
        placeholder={t('auditLog.all')}
        value={values.table_identifiers}
        onChange={set('table_identifiers')}
        error={errors.table_identifiers}
        options={auditTableIdentifiers.map((table) => ({ value: table, label: t(`auditLog.tables.${table}`) }))}
      />
      <SelectField
        name="action"
        label={t('auditLog.action')}
        placeholder={t('auditLog.all')}
        value={values.action}
        onChange={set('action')}
        error={errors.action}
        options={[
          ...auditActions.map((action) => ({ value: action, label: words.action(action) })),
          // An action of the URL this version does not know is still the one filtered on.
          ...(values.action && !(auditActions as readonly string[]).includes(values.action)
            ? [{ value: values.action, label: values.action }]
            : []),
        ]}
      />
      <SelectField
        name="user"
        label={t('auditLog.member')}
        placeholder={t('auditLog.all')}
        value={values.user}
        onChange={set('user')}
        error={errors.user}
        options={memberOptions}
      />
      <DateField
        name="from"
        label={t('auditLog.from')}
        value={values.from}
        onChange={(from) => setValues((current) => ({ ...current, from }))}
        error={errors.from}
      />
      <DateField
        name="to"
        label={t('auditLog.to')}
        value={values.to}
        onChange={(to) => setValues((current) => ({ ...current, to }))}
        error={errors.to}
      />
      <div className="wh-actions">
        <Button type="submit">{t('auditLog.apply')}</Button>
        <Link className="wh-button wh-button--secondary" to="/company/settings/audit-log">
          {t('auditLog.clear')}
        </Link>
      </div>
    </form>
  );
}
