import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime, MessagePage, Spinner, Toast, useDocumentTitle } from '@whistle/ui';
import { reportDetails } from '@whistle/ui/report';
import { useStaffState } from '@whistle/ui/staff';
import { ClockBadges } from '../case/clock-badges.component';
import { CaseActions } from './case-actions.component';
import { CaseAuditTrail } from './case-audit.component';
import { CaseFiles } from './case-files.component';
import { Notes } from './notes.component';
import { CasePeople } from './people.component';
import { Thread } from './thread.component';
import { useCase, type OpenedCase } from './use-case';
import '../case/case.css';

/**
 * The case's past: its status moves (with their decrypted motivations) for everyone who may see the case,
 * and for admins the audit trail of who did what to it (the trail is admin-only: others never ask).
 */
function History({ opened, isAdmin }: { opened: OpenedCase; isAdmin: boolean }) {
  const { t, i18n } = useTranslation('incidents');
  if (opened.view.status_history.length === 0 && !isAdmin) return null;
  return (
    <section className="wh-card wh-stack" aria-labelledby="case-history">
      <h2 id="case-history">{t('history.title')}</h2>
      {opened.view.status_history.length > 0 && (
        <ol className="wh-stack">
          {opened.view.status_history.map((change) => (
            <li key={change.changed_at}>
              <strong>{t(`statuses.${change.to}`)}</strong>
              {change.outcome && <> — {t(`outcomes.${change.outcome}`)}</>}{' '}
              <span className="case-muted">
                {t('history.by', {
                  name: change.changed_by?.full_name ?? t('history.system'),
                  when: formatDateTime(change.changed_at, i18n.language),
                })}
              </span>
              {change.motivation && (
                <p className="case-details">{opened.motivations.get(change.motivation) || t('thread.undecryptable')}</p>
              )}
            </li>
          ))}
        </ol>
      )}
      {isAdmin && <CaseAuditTrail view={opened.view} />}
    </section>
  );
}

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
  const yesNo = (value: string) => (value === 'yes' ? t('detail.yes') : value === 'no' ? t('detail.no') : value);
  const details = reportDetails(
    { fields: opened.fields, categories: view.management_categories, location: view.location },
    i18n.language,
    yesNo,
  );
  return (
    <>
      <p>
        <Link to="/company/incidents">{t('detail.back')}</Link>
      </p>
      <h1>{title}</h1>
      <p>
        <span className="case-status">{t(`statuses.${view.status.name}`)}</span>
        {view.outcome && <> — {t(`outcomes.${view.outcome}`)}</>}{' '}
        <span className="case-muted">
          {t('detail.received', { when: formatDateTime(view.created, i18n.language) })} ·{' '}
          {t(`channels.${view.report_channel}`)} ·{' '}
          {view.report_anonymously ? t('identity.anonymous') : t('identity.identified')}
        </span>
      </p>
      <ClockBadges clocks={view.clocks} showDone />
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
            <CaseFiles files={opened.files.filter((file) => file.messageUuid === null)} opened={opened} />
          </section>
          <Thread opened={opened} onUpdated={updated} />
        </div>
        <div className="wh-stack">
          <CaseActions opened={opened} onUpdated={updated} />
          <CasePeople opened={opened} onUpdated={updated} />
          <Notes opened={opened} onUpdated={updated} />
          <History opened={opened} isAdmin={isAdmin} />
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
 * the report in the spec's review order, its files, the thread, the status moves, who works it, private
 * notes and the history. Every change shows 'Incident details updated'.
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
