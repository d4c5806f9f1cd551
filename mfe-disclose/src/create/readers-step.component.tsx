import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyPublicView } from '@whistle/contracts';
import { readersOf, someoneReads, type ReportReader } from './report-readers';
import type { ReportForm } from './report-form';
import type { SetReportField } from './use-report-form';

export interface ReadersStepProps {
  form: ReportForm;
  set: SetReportField;
  company: Partial<Pick<CompanyPublicView, 'categories' | 'every_case_keys' | 'shows_recipient_names'>>;
}

const ROLE_KEYS = {
  ADMIN: 'create.readers.role.admin',
  REVIEWER: 'create.readers.role.reviewer',
  HANDLER: 'create.readers.role.handler',
} as const;

/**
 * "Who will read this report" (docs/security.md, "Keeping people out"): the readers of the chosen categories, the
 * admins and the reviewers. When the company shows their names, each can be kept out (they then get no key of the
 * report, and neither see nor hear of it); at least one must remain. Without names, the step says who reads it,
 * by role.
 */
export function ReadersStep({ form, set, company }: ReadersStepProps) {
  const { t } = useTranslation('disclose');
  const alertId = useId();
  const readers = readersOf(company, form.category_uuids);
  if (readers.length === 0) return null;
  const named = company.shows_recipient_names === true && readers.every((reader) => reader.name !== null);
  const nobodyLeft = !someoneReads(company, form.category_uuids, form.excluded_key_ids);
  const role = (reader: ReportReader) => t(ROLE_KEYS[reader.role]);
  const toggle = (reader: ReportReader, reads: boolean) =>
    set(
      'excluded_key_ids',
      reads
        ? form.excluded_key_ids.filter((keyId) => keyId !== reader.keyId)
        : [...form.excluded_key_ids, reader.keyId],
    );
  return (
    <fieldset className="wh-categories disclose-readers" aria-describedby={nobodyLeft ? alertId : undefined}>
      <legend className="wh-field__label">{t('create.readers.legend')}</legend>
      <p>{named ? t('create.readers.intro') : t('create.readers.introWithoutNames')}</p>
      <ul>
        {readers.map((reader) => {
          const keptOut = form.excluded_key_ids.includes(reader.keyId);
          return (
            <li key={reader.keyId}>
              {named ? (
                <label>
                  <input
                    type="checkbox"
                    checked={!keptOut}
                    onChange={(event) => toggle(reader, event.target.checked)}
                  />{' '}
                  {t('create.readers.person', { name: reader.name, role: role(reader) })}
                  {keptOut && <span className="disclose-readers__out"> — {t('create.readers.keptOut')}</span>}
                </label>
              ) : (
                role(reader)
              )}
            </li>
          );
        })}
      </ul>
      {nobodyLeft && (
        <p className="wh-alert" role="alert" id={alertId}>
          {t('create.readers.nobodyLeft')}
        </p>
      )}
    </fieldset>
  );
}
