import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  formatDateTime,
  LANGUAGE_NAMES,
  MessagePage,
  Spinner,
  Toast,
  useDocumentTitle,
  type Language,
} from '@whistle/ui';
import { reportDetails } from '@whistle/ui/report';
import { useStaffState } from '@whistle/ui/staff';
import { ClockBadges } from '../case/clock-badges.component';
import { CaseActions } from './case-actions.component';
import { CaseCategories } from './case-categories.component';
import { CaseKeyChanged } from './case-key-changed.component';
import { CaseFiles } from './case-files.component';
import { CaseTimeline } from './case-timeline.component';
import { LinkedCases } from './linked-cases.component';
import { NoteForm } from './note-form.component';
import { PrintCase } from './print-case.component';
import { ProofOfSubmission } from './proof-of-submission.component';
import { CasePeople } from './people.component';
import { ReplyToReporter } from './reply.component';
import { reporterLanguageOf } from './reply-templates.component';
import { useCase, type OpenedCase } from './use-case';
import '../case/case.css';

function OpenedCasePage({ opened, reload }: { opened: OpenedCase; reload: () => Promise<void> }) {
  const { t, i18n } = useTranslation('incidents');
  const [toast, setToast] = useState(false);
  const isAdmin = useStaffState()?.profile.roles.includes('ADMIN') ?? false;
  const { view } = opened;
  const title = t('detail.title', { number: view.display_report_number });
  useDocumentTitle(title);
  const updated = async () => {
    await reload();
    setToast(true);
  };
  const reporterLanguage = reporterLanguageOf(opened);
  const yesNo = (value: string) => (value === 'yes' ? t('detail.yes') : value === 'no' ? t('detail.no') : value);
  const details = reportDetails(
    {
      fields: opened.fields,
      categories: view.management_categories,
      location: view.location,
      unverifiable: { names: opened.unverifiableFields, text: t('thread.unverifiable') },
    },
    i18n.language,
    yesNo,
  );
  return (
    <>
      <p>
        <Link to="/company/incidents">{t('detail.back')}</Link>
      </p>
      <div className="case-title">
        <h1>{title}</h1>
        <PrintCase opened={opened} />
      </div>
      {opened.keyChanged && <CaseKeyChanged opened={opened} onTrusted={reload} />}
      <p>
        <span className="case-status">{t(`statuses.${view.status.name}`)}</span>
        {view.outcome && <> — {t(`outcomes.${view.outcome}`)}</>}{' '}
        <span className="case-muted">
          {t('detail.received', { when: formatDateTime(view.created, i18n.language) })} ·{' '}
          {t(`channels.${view.report_channel}`)} ·{' '}
          {view.report_anonymously ? t('identity.anonymous') : t('identity.identified')}
          {reporterLanguage && (
            <>
              {' · '}
              {t('detail.language', { language: LANGUAGE_NAMES[reporterLanguage as Language] ?? reporterLanguage })}
            </>
          )}
        </span>
      </p>
      {view.recorded_by && (
        <p className="case-recorded">
          {t(`record.recordedBy.${view.report_channel === 'internal' ? 'internal' : 'telephone'}`, {
            name: view.recorded_by.full_name,
          })}{' '}
          · <strong>{view.record_approved_at ? t('record.approved') : t('record.notApproved')}</strong>
        </p>
      )}
      <ClockBadges clocks={view.clocks} showDone />
      <ProofOfSubmission view={view} />
      <div className="case-grid">
        <div className="wh-stack">
          <section className="wh-card wh-stack" aria-labelledby="case-report">
            <h2 id="case-report">{t('detail.report')}</h2>
            <dl className="case-details">
              {details.map((row) => (
                <div key={row.name} className="case-details__row">
                  <dt>{t(`fields.${row.name}`)}</dt>
                  <dd>{row.value}</dd>
                </div>
              ))}
            </dl>
            <CaseCategories opened={opened} onUpdated={updated} />
            <CaseFiles files={opened.files.filter((file) => file.messageUuid === null)} opened={opened} />
          </section>
          <CaseTimeline opened={opened} isAdmin={isAdmin}>
            <ReplyToReporter opened={opened} onUpdated={updated} />
            <NoteForm opened={opened} onUpdated={updated} />
          </CaseTimeline>
        </div>
        <div className="wh-stack">
          <CaseActions opened={opened} onUpdated={updated} />
          <CasePeople opened={opened} onUpdated={updated} />
          <LinkedCases opened={opened} onUpdated={updated} />
        </div>
      </div>
      {toast && (
        <Toast status="success" onDismiss={() => setToast(false)} dismissLabel={t('detail.closeNotice')}>
          {t('detail.updated')}
        </Toast>
      )}
    </>
  );
}

/**
 * /company/incidents/{incidentUUID}: the whole case, decrypted in this browser with the company key:
 * the report in the spec's review order with its files, the status and who works it, and one timeline of
 * everything that happened to it (messages, notes, status moves and, for admins, the audit trail) with the reply
 * and note forms. Every change shows 'Incident details updated'.
 */
export function IncidentDetailPage() {
  const { t } = useTranslation('incidents');
  const { incidentUuid = '' } = useParams();
  const { state, reload } = useCase(incidentUuid);
  if (state.phase === 'loading') return <Spinner />;
  if (state.phase === 'opened') return <OpenedCasePage key={incidentUuid} opened={state.opened} reload={reload} />;
  return (
    <MessagePage title={t(`detail.${state.phase}.title`)} role="alert">
      <p>{t(`detail.${state.phase}.description`)}</p>
      <Link to="/company/incidents">{t('detail.back')}</Link>
    </MessagePage>
  );
}
