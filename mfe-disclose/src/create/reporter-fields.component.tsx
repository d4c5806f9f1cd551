import { useTranslation } from 'react-i18next';
import { Choice, SelectField, TextField } from '@whistle/ui';
import { dialCodeOptions } from './dial-codes';
import type { ReportForm } from './report-form';
import type { SetReportField } from './use-report-form';

/** What anonymity protects, and what it cannot: said before the discloser types anything. */
function AnonymityExplainer() {
  const { t } = useTranslation('disclose');
  return (
    <>
      <p>{t('create.anonymity.protects')}</p>
      <p>{t('create.anonymity.limitsTitle')}</p>
      <ul>
        <li>{t('create.anonymity.limitText')}</li>
        <li>{t('create.anonymity.limitFiles')}</li>
        <li>{t('create.anonymity.limitDevice')}</li>
      </ul>
    </>
  );
}

/**
 * Spec §3: who reports. First an explicit choice, anonymous unless the discloser gives their name; the identity
 * inputs exist only then. The report channel is not asked here: this public form is the online channel.
 */
export function ReporterFields({ form, set }: { form: ReportForm; set: SetReportField }) {
  const { t } = useTranslation('disclose');
  return (
    <>
      <Choice
        name="report_anonymously"
        legend={t('create.anonymity.legend')}
        value={form.report_anonymously ? 'true' : 'false'}
        options={[
          { value: 'true', label: t('create.anonymity.anonymous') },
          { value: 'false', label: t('create.anonymity.named') },
        ]}
        onChange={(value) => set('report_anonymously', value === 'true')}
        description={<AnonymityExplainer />}
      />
      {!form.report_anonymously && (
        <fieldset className="disclose-identity">
          <legend className="wh-field__label">{t('create.identity')}</legend>
          <p className="disclose-identity__note">{t('create.anonymity.namedNote')}</p>
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
