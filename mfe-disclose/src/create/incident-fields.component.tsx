import { useTranslation } from 'react-i18next';
import type { CompanyPublicView } from '@whistle/contracts';
import { CategoryPicker, SelectField, TextArea, TextField } from '@whistle/ui';
import { requiredFieldIds, type ReportErrors, type ReportForm, type RequiredField } from './report-form';
import type { SetReportField } from './use-report-form';

export interface IncidentFieldsProps {
  form: ReportForm;
  errors: ReportErrors;
  set: SetReportField;
  company: Pick<CompanyPublicView, 'categories' | 'locations'>;
}

/** Spec §3: what happened, where and when, among the company's categories and locations. */
export function IncidentFields({ form, errors, set, company }: IncidentFieldsProps) {
  const { t } = useTranslation(['disclose', 'common']);
  // Spec §5: 'This field is required' next to each missing required field.
  const missing = (name: RequiredField) => (errors[name] ? t('common:validation.required') : undefined);
  // Marked before any submit, so nobody learns what is required by failing.
  const required = (name: RequiredField) => ({
    id: requiredFieldIds[name],
    error: missing(name),
    requiredMark: t('create.required'),
  });
  return (
    <>
      <CategoryPicker
        legend={t('create.category_uuids')}
        categories={company.categories}
        selected={form.category_uuids}
        {...required('category_uuids')}
        onChange={(selected) => set('category_uuids', selected)}
      />
      <TextArea
        name="description"
        label={t('create.description')}
        value={form.description}
        onChange={(event) => set('description', event.target.value)}
        {...required('description')}
      />
      <SelectField
        name="location_uuid"
        label={t('create.location_uuid')}
        placeholder={t('create.locationPlaceholder')}
        {...required('location_uuid')}
        options={company.locations.map((location) => ({ value: location.uuid, label: location.name }))}
        value={form.location_uuid}
        onChange={(event) => set('location_uuid', event.target.value)}
      />
      <TextField
        name="location_detail"
        label={t('create.location_detail')}
        value={form.location_detail}
        onChange={(event) => set('location_detail', event.target.value)}
      />
      <div className="disclose-dates">
        <TextField
          name="date"
          type="date"
          label={t('create.date')}
          value={form.date}
          onChange={(event) => set('date', event.target.value)}
        />
        <TextField
          name="end_date"
          type="date"
          label={t('create.end_date')}
          min={form.date || undefined}
          value={form.end_date}
          onChange={(event) => set('end_date', event.target.value)}
        />
      </div>
      <TextArea
        name="people_involved"
        label={t('create.people_involved')}
        value={form.people_involved}
        onChange={(event) => set('people_involved', event.target.value)}
      />
      <TextArea
        name="outcome"
        label={t('create.outcome')}
        value={form.outcome}
        onChange={(event) => set('outcome', event.target.value)}
      />
    </>
  );
}
