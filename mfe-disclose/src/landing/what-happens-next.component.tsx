import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What the company must do and when (EU directive 2019/1937 art. 9(1)(b), (f)): acknowledge within 7 days, give
 * feedback within 3 months of that. Said on the landing and success pages; the status page shows the case's dates.
 */
export function WhatHappensNext() {
  const { t } = useTranslation('disclose');
  const titleId = useId();
  return (
    <section className="disclose-next" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('next.title')}</h2>
      <ol>
        <li>{t('next.acknowledgement')}</li>
        <li>{t('next.feedback')}</li>
        <li>{t('next.statusPage')}</li>
      </ol>
    </section>
  );
}
