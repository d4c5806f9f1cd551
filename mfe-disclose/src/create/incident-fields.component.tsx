import { useTranslation } from 'react-i18next';
import type { CompanyPublicView } from '@whistle/contracts';
import { IncidentFields as SharedIncidentFields } from '@whistle/ui/report';
import { requiredFieldIds, type ReportErrors, type ReportForm, type RequiredField } from './report-form';
import type { SetReportField } from './use-report-form';

export interface IncidentFieldsProps {
  form: ReportForm;
  errors: ReportErrors;
  set: SetReportField;
  company: Pick<CompanyPublicView, 'categories' | 'locations'>;
}

/** Spec §3: what happened, where and when, among the company's categories and locations (@whistle/ui/report's). */
export function IncidentFields({ form, errors, set, company }: IncidentFieldsProps) {
  const { t } = useTranslation(['disclose', 'common']);
  return (
    <SharedIncidentFields
      values={form}
      set={set}
      company={company}
      words={{
        category_uuids: t('create.category_uuids'),
        description: t('create.description'),
        location_uuid: t('create.location_uuid'),
        locationPlaceholder: t('create.locationPlaceholder'),
        location_detail: t('create.location_detail'),
        date: t('create.date'),
        end_date: t('create.end_date'),
        people_involved: t('create.people_involved'),
        outcome: t('create.outcome'),
      }}
      // Marked before any submit, so nobody learns what is required by failing; spec §5: 'This field is required'
      // next to each missing required field.
      required={(name: RequiredField) => ({
        id: requiredFieldIds[name],
        error: errors[name] ? t('common:validation.required') : undefined,
        requiredMark: t('create.required'),
      })}
    />
  );
}
