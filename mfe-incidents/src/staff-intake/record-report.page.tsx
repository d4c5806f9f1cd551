import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getCompanyPublicView } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { Button, Choice, Spinner, TextField, useDocumentTitle, useLoad } from '@whistle/ui';
import { IncidentFields } from '@whistle/ui/report';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { secretCodeGroups } from '@whistle/crypto';
import { mayRecord } from './may-record';
import { emptyRecord, recordReport, recorderIsAssigned, type StaffRecord } from './record-report';

/** The reporter's secret code, shown this once for staff to pass on, in groups to read aloud. */
function CodeToPassOn({ code, caseUuid }: { code: string; caseUuid: string }) {
  const { t } = useTranslation('incidents');
  return (
    <section className="wh-card wh-stack" aria-labelledby="record-done">
      <h1 id="record-done">{t('record.done.title')}</h1>
      <p>{t('record.done.instruction')}</p>
      <div role="group" aria-labelledby="record-code-label" className="record-code">
        <p className="wh-field__label" id="record-code-label">
          {t('record.done.codeLabel')}
        </p>
        <p className="record-code__value" translate="no" dir="ltr">
          {secretCodeGroups(code).map((group, index) => (
            <span key={index} className="record-code__group">
              {group}{' '}
            </span>
          ))}
        </p>
      </div>
      <p className="wh-alert" role="alert">
        {t('record.done.warning')}
      </p>
      <Link to={`/company/incidents/${caseUuid}`}>{t('record.done.open')}</Link>
    </section>
  );
}

type Setter = <K extends keyof StaffRecord>(name: K, value: StaffRecord[K]) => void;

/** The reporter's form's fields, as staff write them down (the incident's ones are the reporter form's own). */
function RecordFields({
  company,
  record,
  set,
  errorOf,
}: {
  company: Pick<CompanyPublicView, 'categories' | 'locations'>;
  record: StaffRecord;
  set: Setter;
  errorOf: (name: string) => string | undefined;
}) {
  const { t } = useTranslation('incidents');
  const required = t('record.required');
  return (
    <>
      <IncidentFields
        values={record}
        set={set}
        company={company}
        words={{
          category_uuids: t('fields.category_uuid'),
          description: t('fields.description'),
          location_uuid: t('fields.location'),
          locationPlaceholder: t('record.choose'),
          location_detail: t('fields.location_detail'),
          date: t('record.from'),
          end_date: t('record.to'),
          people_involved: t('fields.people_involved'),
          outcome: t('fields.outcome'),
        }}
        required={(name) => ({ error: errorOf(name), requiredMark: required })}
      />
      <Choice
        name="report_anonymously"
        legend={t('record.anonymous')}
        options={[
          { value: 'yes', label: t('detail.yes') },
          { value: 'no', label: t('detail.no') },
        ]}
        value={record.report_anonymously ? 'yes' : 'no'}
        onChange={(value) => set('report_anonymously', value === 'yes')}
      />
      {!record.report_anonymously && (
        <>
          <TextField
            name="full_name"
            label={t('fields.full_name')}
            value={record.full_name}
            onChange={(event) => set('full_name', event.target.value)}
          />
          <TextField
            name="email"
            type="email"
            label={t('fields.email')}
            value={record.email}
            onChange={(event) => set('email', event.target.value)}
          />
          <TextField
            name="phone_number"
            type="tel"
            label={t('fields.phone_number')}
            value={record.phone_number}
            onChange={(event) => set('phone_number', event.target.value)}
          />
        </>
      )}
      <Choice
        name="can_contact"
        legend={t('fields.can_contact')}
        options={[
          { value: 'yes', label: t('detail.yes') },
          { value: 'no', label: t('detail.no') },
        ]}
        value={record.can_contact}
        onChange={(value) => set('can_contact', value)}
      />
    </>
  );
}

/**
 * /company/incidents/record: a report taken by telephone or in a meeting (directive art. 18), written down here
 * with the reporter's form's fields and encrypted in this browser to the company key, like a reporter's report (and,
 * for a handler, to their own key).
 */
export function RecordReportPage() {
  const { t } = useTranslation('incidents');
  const session = useStaffSession();
  const staff = useStaffState();
  const urlIdentifier = staff?.company.url_identifier;
  const { data: company, error } = useLoad(
    (signal) => (urlIdentifier ? getCompanyPublicView(session.api, urlIdentifier, signal) : Promise.resolve(null)),
    [session, urlIdentifier],
    { shows: () => true },
  );
  const [record, setRecord] = useState<StaffRecord>(emptyRecord);
  const [missing, setMissing] = useState<string[]>([]);
  const [state, setState] = useState<'idle' | 'sending' | 'failed'>('idle');
  const [done, setDone] = useState<{ uuid: string; secretCode: string } | null>(null);
  useDocumentTitle(t('record.title'));
  const set: Setter = (name, value) => setRecord((current) => ({ ...current, [name]: value }));

  if (done) return <CodeToPassOn code={done.secretCode} caseUuid={done.uuid} />;
  if (staff && !mayRecord(staff.profile.roles)) return <p className="wh-alert">{t('record.notAllowed')}</p>;
  if (error !== undefined)
    return (
      <p className="wh-alert" role="alert">
        {t('record.loadFailed')}
      </p>
    );
  if (!company) return <Spinner />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const absent = [
      ...(record.category_uuids.length === 0 ? ['category_uuids'] : []),
      ...(record.location_uuid ? [] : ['location_uuid']),
      ...(record.description.trim() ? [] : ['description']),
    ];
    setMissing(absent);
    if (absent.length > 0 || !company) return;
    setState('sending');
    try {
      // A handler is assigned what they record: their own key gets a grant, so no company key is needed to open it.
      const person = staff && recorderIsAssigned(staff.profile.roles) ? session.keyring.person() : undefined;
      setDone(await recordReport(session.api, company, record, person));
    } catch {
      setState('failed');
    }
  }
  const errorOf = (name: string) => (missing.includes(name) ? t('record.missing') : undefined);
  return (
    <form
      className="wh-card wh-stack"
      aria-labelledby="record-title"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h1 id="record-title">{t('record.title')}</h1>
      <p>{t('record.intro')}</p>
      <Choice
        name="report_channel"
        legend={t('record.channel')}
        options={[
          { value: 'telephone', label: t('channels.telephone') },
          { value: 'internal', label: t('record.meeting') },
        ]}
        value={record.report_channel}
        onChange={(value) => set('report_channel', value)}
      />
      <RecordFields company={company} record={record} set={set} errorOf={errorOf} />
      {state === 'failed' && (
        <p className="wh-alert" role="alert">
          {t('record.failed')}
        </p>
      )}
      <div className="case-toolbar">
        <Button type="submit" disabled={state === 'sending'}>
          {state === 'sending' ? t('record.sending') : t('record.submit')}
        </Button>
        <Link to="/company/incidents">{t('detail.back')}</Link>
      </div>
    </form>
  );
}
