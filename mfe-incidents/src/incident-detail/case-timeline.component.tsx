import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime, Spinner } from '@whistle/ui';
import { MessageEntry } from '@whistle/ui/report';
import { useAuditWords } from '@whistle/ui/staff';
import { CaseFiles } from './case-files.component';
import {
  auditOnlyKinds,
  caseTimeline,
  filtered,
  timelineKinds,
  type TimelineEntry,
  type TimelineKind,
} from './case-timeline';
import type { OpenedCase } from './use-case';
import { useCaseAudit, type CaseAuditState } from './use-case-audit';

/** An entry other than a message: what happened (and who did it) at its time, details below. */
function Happening({
  at,
  title,
  tone,
  children,
}: {
  at: string;
  title: ReactNode;
  tone: string;
  children?: ReactNode;
}) {
  const { i18n } = useTranslation();
  return (
    <div className={`case-event case-event--${tone}`}>
      <p className="wh-message__meta">
        <strong>{title}</strong> <time dateTime={at}>{formatTime(at, i18n.language)}</time>
      </p>
      {children}
    </div>
  );
}

function Entry({ entry, opened }: { entry: TimelineEntry; opened: OpenedCase }) {
  const { t } = useTranslation('incidents');
  const words = useAuditWords();
  switch (entry.type) {
    case 'received':
      return (
        <Happening at={entry.at} tone="status" title={t('timeline.received')}>
          <p className="case-muted">{t(`channels.${entry.view.report_channel}`)}</p>
        </Happening>
      );
    case 'message':
      return (
        <MessageEntry
          message={entry.message}
          ownSource="STAFF"
          words={{
            sentBy: (name) => t('thread.sentBy', { name }),
            receivedFrom: (name) => t('thread.receivedFrom', { name }),
            unverifiable: t('thread.unverifiable'),
            feedback: t('thread.feedback'),
          }}
          files={
            <CaseFiles files={opened.files.filter((file) => file.messageUuid === entry.message.uuid)} opened={opened} />
          }
        />
      );
    case 'note':
      return (
        <Happening at={entry.at} tone="note" title={t('timeline.note', { name: entry.note.author.full_name })}>
          <p className="case-details">{entry.note.text || t('thread.unverifiable')}</p>
        </Happening>
      );
    case 'status': {
      const { change } = entry;
      const status = t(`statuses.${change.to}`);
      return (
        <Happening
          at={entry.at}
          tone="status"
          title={t('timeline.status', {
            status: change.outcome ? `${status} — ${t(`outcomes.${change.outcome}`)}` : status,
            name: change.changed_by?.full_name ?? t('history.system'),
          })}
        >
          {change.motivation && (
            <p className="case-details">{opened.motivations.get(change.motivation) || t('thread.unverifiable')}</p>
          )}
        </Happening>
      );
    }
    case 'audit':
      return (
        <Happening
          at={entry.at}
          tone={entry.kinds[0]!}
          title={t('timeline.audit', {
            action: words.action(entry.entry.action),
            name: words.actor(entry.entry.actor),
          })}
        >
          {!entry.entry.success && <span className="case-trail__failed">{t('history.refused')}</span>}
        </Happening>
      );
  }
}

/** The entries grouped by the day they happened on (in the viewer's time zone), oldest first. */
function byDay(entries: readonly TimelineEntry[], language: string) {
  const days: { day: string; entries: TimelineEntry[] }[] = [];
  for (const entry of entries) {
    const day = formatDate(entry.at, language);
    if (days.at(-1)?.day === day) days.at(-1)!.entries.push(entry);
    else days.push({ day, entries: [entry] });
  }
  return days;
}

function TrailNotice({ audit }: { audit: CaseAuditState }) {
  const { t } = useTranslation('incidents');
  if (audit.phase === 'loading') return <Spinner />;
  if (audit.phase === 'failed')
    return (
      <p className="wh-alert" role="alert">
        {t('history.trailFailed')}
      </p>
    );
  return null;
}

/**
 * Everything that happened to the case in one list, oldest first, grouped by day: the report's arrival, the
 * messages with the reporter (decrypted here, with their files), private notes, status moves and, for admins
 * (who alone may read the audit trail, asked once the case is open), its assignments, openings, downloads and
 * exports. A group of checkboxes chooses the kinds shown. `children`: the reply and note forms, under the list.
 */
export function CaseTimeline({
  opened,
  isAdmin,
  children,
}: {
  opened: OpenedCase;
  isAdmin: boolean;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation('incidents');
  const audit = useCaseAudit(opened.view, isAdmin);
  // The kinds unticked, so that the trail's kinds, offered once the viewer is known as an admin, start ticked.
  const [hidden, setHidden] = useState<ReadonlySet<TimelineKind>>(() => new Set());
  const kinds = timelineKinds.filter((kind) => isAdmin || !auditOnlyKinds.includes(kind));
  const all = caseTimeline(opened, audit?.phase === 'loaded' ? audit.entries : []);
  const shown = filtered(all, new Set(kinds.filter((kind) => !hidden.has(kind))));
  const toggle = (kind: TimelineKind, on: boolean) =>
    setHidden((current) => {
      const next = new Set(current);
      if (on) next.delete(kind);
      else next.add(kind);
      return next;
    });
  return (
    <section className="wh-card wh-stack" aria-labelledby="case-timeline">
      <h2 id="case-timeline">{t('timeline.title')}</h2>
      <fieldset className="case-timeline__filter">
        <legend className="wh-field__label">{t('timeline.show')}</legend>
        {kinds.map((kind) => (
          <label key={kind} className="case-checkbox">
            <input
              type="checkbox"
              checked={!hidden.has(kind)}
              onChange={(event) => toggle(kind, event.target.checked)}
            />{' '}
            {t(`timeline.kinds.${kind}`, { count: all.filter((entry) => entry.kinds.includes(kind)).length })}
          </label>
        ))}
      </fieldset>
      {audit && <TrailNotice audit={audit} />}
      {shown.length === 0 ? (
        <p className="case-muted">{t('timeline.nothing')}</p>
      ) : (
        byDay(shown, i18n.language).map(({ day, entries }) => (
          <div key={day} className="case-timeline__day">
            <h3 className="case-timeline__date">{day}</h3>
            <ol className="wh-thread">
              {entries.map((entry) => (
                <li key={entry.key}>
                  <Entry entry={entry} opened={opened} />
                </li>
              ))}
            </ol>
          </div>
        ))
      )}
      {children}
    </section>
  );
}
