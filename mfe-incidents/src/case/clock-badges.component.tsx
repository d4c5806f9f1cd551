import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncidentClocks } from '@whistle/contracts';
import { formatDate, formatDateTime } from '@whistle/ui';
import { CLOCK_NAMES } from './case-vocabulary';
import { urgencyOf } from './clock-urgency';
import './case.css';

/**
 * The directive's clocks of a case as badges: acknowledgement, feedback, resolution, each overdue (red), due
 * within a few days (amber) or later, said in words too (done clocks are left out of the list, shown on the case).
 */
export function ClockBadges({ clocks, showDone = false }: { clocks: IncidentClocks; showDone?: boolean }) {
  // The list shows dates (compact); the case, with done clocks, dates and times.
  const when = (iso: string, locale: string) => (showDone ? formatDateTime(iso, locale) : formatDate(iso, locale));
  const { t, i18n } = useTranslation('incidents');
  // Read once per mount: the urgency of a page of cases does not need to tick while it is on screen.
  const [now] = useState(Date.now);
  const shown = CLOCK_NAMES.filter((name) => showDone || clocks[name].state !== 'done');
  if (shown.length === 0) return null;
  return (
    <ul className="case-clocks" aria-label={t('clocks.label')}>
      {shown.map((name) => {
        const clock = clocks[name];
        let level: string;
        let text: string;
        if (clock.done_at !== null || clock.state === 'done') {
          level = 'done';
          text = t('clocks.done', { when: when(clock.done_at ?? clock.due_at, i18n.language) });
        } else {
          const urgency = urgencyOf(clock.due_at, now);
          const at = when(clock.due_at, i18n.language);
          level = urgency.level;
          text =
            urgency.level === 'overdue'
              ? t('clocks.overdue', { when: at })
              : t('clocks.dueIn', { count: urgency.days, when: at });
        }
        return (
          <li key={name} className={`case-clock case-clock--${level}`}>
            <span className="case-clock__name">{t(`clocks.${name}`)}</span>{' '}
            <span className="case-clock__state">{text}</span>
          </li>
        );
      })}
    </ul>
  );
}
