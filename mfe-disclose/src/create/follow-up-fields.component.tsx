import { useTranslation } from 'react-i18next';
import { Choice, TextArea } from '@whistle/ui';
import type { ReportForm } from './report-form';
import type { SetReportField } from './use-report-form';

/**
 * Spec §3: whether the company may get back to the discloser, and an earlier report if any. Asked of an anonymous
 * reporter as what it means for them: questions that wait on the status page, opened with the secret code.
 */
export function FollowUpFields({ form, set }: { form: ReportForm; set: SetReportField }) {
  const { t } = useTranslation('disclose');
  const yesNo = [
    { value: 'yes', label: t('create.yes') },
    { value: 'no', label: t('create.no') },
  ] as const;
  return (
    <>
      <Choice
        name="can_contact"
        legend={form.report_anonymously ? t('create.contact.anonymousLegend') : t('create.can_contact')}
        description={form.report_anonymously ? t('create.contact.anonymousHint') : t('create.contact.namedHint')}
        options={yesNo}
        value={form.can_contact}
        onChange={(value) => set('can_contact', value)}
      />
      <Choice
        name="previous_report"
        legend={t('create.previous_report')}
        options={yesNo}
        value={form.previous_report}
        onChange={(value) => set('previous_report', value)}
      />
      {form.previous_report === 'yes' && (
        <TextArea
          name="previous_report_details"
          label={t('create.previous_report_details')}
          value={form.previous_report_details}
          onChange={(event) => set('previous_report_details', event.target.value)}
        />
      )}
    </>
  );
}
