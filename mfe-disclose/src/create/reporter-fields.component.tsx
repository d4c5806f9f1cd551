import { useTranslation } from 'react-i18next';
import { Choice, SelectField, TextField } from '@whistle/ui';
import { dialCodeOptions } from './dial-codes';
import type { ReportForm } from './report-form';
import type { SetReportField } from './use-report-form';

const CHANNELS = ['online', 'telephone', 'internal'] as const;

/** Spec §3: how the incident was reported, and who reports it unless anonymously. */
export function ReporterFields({ form, set }: { form: ReportForm; set: SetReportField }) {
  const { t } = useTranslation('disclose');
  return (
    <>
      <Choice
        name="report_channel"
        legend={t('create.report_channel')}
        value={form.report_channel}
        options={CHANNELS.map((value) => ({ value, label: t(`create.channels.${value}`) }))}
        onChange={(value) => set('report_channel', value)}
      />
      <label className="disclose-toggle">
        <input
          type="checkbox"
          role="switch"
          name="report_anonymously"
          checked={form.report_anonymously}
          onChange={(event) => set('report_anonymously', event.target.checked)}
        />{' '}
        {t('create.report_anonymously')}
      </label>
      {!form.report_anonymously && (
        <fieldset className="disclose-identity">
          <legend className="wh-field__label">{t('create.identity')}</legend>
          <TextField
            name="full_name"
            label={t('create.full_name')}
            autoComplete="name"
            value={form.full_name}
            onChange={(event) => set('full_name', event.target.value)}
          />
          <TextField
            name="email"
            type="email"
            label={t('create.email')}
            autoComplete="email"
            value={form.email}
            onChange={(event) => set('email', event.target.value)}
          />
          <div className="disclose-phone">
            <SelectField
              name="phone_number_code"
              label={t('create.phone_number_code')}
              placeholder={t('create.phoneCodePlaceholder')}
              options={dialCodeOptions}
              value={form.phone_number_code}
              onChange={(event) => set('phone_number_code', event.target.value)}
            />
            <TextField
              name="phone_number"
              type="tel"
              label={t('create.phone_number')}
              autoComplete="tel-national"
              value={form.phone_number}
              onChange={(event) => set('phone_number', event.target.value)}
            />
          </div>
        </fieldset>
      )}
    </>
  );
}
