import { useTranslation } from 'react-i18next';
import type { ThreadMessage } from '@whistle/ui/report';
import { discloserClocks, type DiscloserClock } from './case-clocks';
import type { DiscloserSession } from './discloser-session';

/** What the company must do for this report and by when, and what it has done (spec §2: locale short dates). */
export function CaseClocks({
  incident,
  messages,
}: {
  incident: DiscloserSession['incident'];
  messages: readonly ThreadMessage[] | undefined;
}) {
  const { t, i18n } = useTranslation('disclose');
  const date = (value: Date) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short' }).format(value);
  const clocks = discloserClocks(incident, messages);
  const stateOf = (clock: DiscloserClock, doneWords: (at?: Date) => string) => {
    switch (clock.state) {
      case 'done':
        return doneWords(clock.at);
      case 'due':
        return t('review.clocks.dueBy', { date: date(clock.dueAt) });
      case 'late':
        return t('review.clocks.lateSince', { date: date(clock.dueAt) });
      case 'afterAcknowledgement':
        return t('review.clocks.feedbackAfterAcknowledgement', { date: date(clock.latest) });
    }
  };
  return (
    <section aria-labelledby="clocks-title" className="disclose-clocks">
      <h2 id="clocks-title">{t('review.clocks.title')}</h2>
      <dl className="disclose-clocks__list">
        <div>
          <dt>{t('review.clocks.received')}</dt>
          <dd>{date(clocks.received)}</dd>
        </div>
        <div>
          <dt>{t('review.clocks.acknowledgement')}</dt>
          <dd className={`disclose-clocks__state--${clocks.acknowledgement.state}`}>
            {stateOf(clocks.acknowledgement, () => t('review.clocks.done'))}
          </dd>
        </div>
        <div>
          <dt>{t('review.clocks.feedback')}</dt>
          <dd className={`disclose-clocks__state--${clocks.feedback.state}`}>
            {stateOf(clocks.feedback, (at) =>
              at ? t('review.clocks.givenOn', { date: date(at) }) : t('review.clocks.done'),
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}
