import { useTranslation } from 'react-i18next';
import type { IncidentClocks } from '@whistle/contracts';
import { formatDate, formatDateTime } from '@whistle/ui';
import { CLOCK_NAMES } from './case-vocabulary';
import './case.css';

/**
 * The directive's clocks of a case as badges: acknowledgement, feedback, resolution, each due / due soon /
 * overdue (done clocks are left out of the list, shown on the case).
 */
export function ClockBadges({ clocks, showDone = false }: { clocks: IncidentClocks; showDone?: boolean }) {
  // The list shows dates (compact); the case, with done clocks, dates and times.
  const when = (iso: string, locale: string) => (showDone ? formatDateTime(iso, locale) : formatDate(iso, locale));
  const { t, i18n } = useTranslation('incidents');
  const shown = CLOCK_NAMES.filter((name) => showDone || clocks[name].state !== 'done');
  if (shown.length === 0) return null;
  return (
    <ul className="case-clocks" aria-label={t('clocks.label')}>
      {shown.map((name) => {
        const clock = clocks[name];
        const at = when(clock.done_at ?? clock.due_at, i18n.language);
        return (
          <li key={name} className={`case-clock case-clock--${clock.state}`}>
            <span className="case-clock__name">{t(`clocks.${name}`)}</span>{' '}
            <span className="case-clock__state">{t(`clocks.states.${clock.state}`, { when: at })}</span>
          </li>
        );
      })}
    </ul>
  );
}
