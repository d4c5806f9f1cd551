import { useTranslation } from 'react-i18next';
import type { ReportingMedian, ReportingResponse, ReportingShare } from '@whistle/contracts';

/** The tiles: medians, the directive's shares, and the company now. */
export function KeyFigures({ report }: { report: ReportingResponse }) {
  const { t, i18n } = useTranslation('incidents');
  const language = i18n.language;
  const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const count = new Intl.NumberFormat(language);
  const median = (value: ReportingMedian) =>
    value.median_days === null
      ? { figure: t('reporting.none'), detail: t('reporting.noCaseYet') }
      : {
          figure: t('reporting.days', { count: value.median_days, value: decimal.format(value.median_days) }),
          detail: t('reporting.overCases', { count: value.cases, value: count.format(value.cases) }),
        };
  const share = (value: ReportingShare) =>
    value.share === null
      ? { figure: t('reporting.none'), detail: t('reporting.noClockYet') }
      : {
          figure: percent.format(value.share),
          detail: t('reporting.metOf', {
            met: count.format(value.met),
            count: value.counted,
            counted: count.format(value.counted),
          }),
        };
  const tiles = [
    { key: 'toAcknowledge', ...median(report.times.to_acknowledge) },
    { key: 'toFirstFeedback', ...median(report.times.to_first_feedback) },
    { key: 'toClose', ...median(report.times.to_close) },
    { key: 'acknowledgedIn7Days', ...share(report.directive.acknowledged_within_7_days) },
    { key: 'feedbackIn3Months', ...share(report.directive.feedback_within_3_months) },
    { key: 'openNow', figure: count.format(report.now.open), detail: t('reporting.nowDetail') },
    { key: 'overdueNow', figure: count.format(report.now.overdue), detail: t('reporting.nowDetail') },
  ];
  return (
    <section aria-labelledby="reporting-key-figures">
      <h2 id="reporting-key-figures" className="wh-visually-hidden">
        {t('reporting.keyFigures')}
      </h2>
      <dl className="reporting-tiles">
        {tiles.map((tile) => (
          <div key={tile.key} className="reporting-tile">
            <dt>{t(`reporting.tiles.${tile.key}`)}</dt>
            <dd>
              <span className="reporting-tile__figure">{tile.figure}</span>
              <span className="reporting-tile__detail">{tile.detail}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
