import { useTranslation } from 'react-i18next';
import type { ReportChannel, ReportingResponse } from '@whistle/contracts';
import { formatMonth } from '@whistle/ui';
import { BarChart } from './charts';
import { Figure, type Cell } from './figure.component';
import { KeyFigures } from './key-figures.component';

// The contracts' channel order, as a type-checked list (importing the values would bring zod to the page).
const CHANNELS: readonly ReportChannel[] = ['online', 'telephone', 'internal'];

/** Horizontal bars: room for each name, within bounds. */
const barsHeight = (bars: number) => Math.min(600, Math.max(160, 40 + bars * 32));

/** Cases per month, stacked by channel, with the month's total in the table. */
function MonthFigure({ report }: { report: ReportingResponse }) {
  const { t, i18n } = useTranslation('incidents');
  const months = report.by_month.map((row) => ({
    // Short names: twelve of them share the chart's axis.
    text: formatMonth(row.month, i18n.language, { short: true }),
    csv: row.month,
  }));
  const title = t('reporting.figures.perMonth');
  const rows: Cell[][] = report.by_month.map((row, index) => [
    months[index]!,
    ...CHANNELS.map((channel) => row.channels[channel]),
    CHANNELS.reduce((sum, channel) => sum + row.channels[channel], 0),
  ]);
  return (
    <Figure
      title={title}
      slug="cases-per-month"
      period={report.period}
      columns={[t('reporting.columns.month'), ...CHANNELS.map((c) => t(`channels.${c}`)), t('reporting.columns.total')]}
      rows={rows}
    >
      <BarChart
        stacked
        description={t('reporting.chartDescription', { title })}
        labels={months.map((month) => month.text)}
        series={CHANNELS.map((channel) => ({
          label: t(`channels.${channel}`),
          values: report.by_month.map((row) => row.channels[channel]),
        }))}
      />
    </Figure>
  );
}

/** Cases counted by one thing (category, location, status, outcome): one bar each, horizontal for names. */
function CountFigure({
  title,
  slug,
  column,
  counts,
  period,
  horizontal = false,
}: {
  title: string;
  slug: string;
  column: string;
  counts: readonly { label: string; count: number }[];
  period: ReportingResponse['period'];
  horizontal?: boolean;
}) {
  const { t } = useTranslation('incidents');
  const cases = t('reporting.columns.cases');
  return (
    <Figure
      title={title}
      slug={slug}
      period={period}
      columns={[column, cases]}
      rows={counts.map((row) => [row.label, row.count])}
      height={horizontal ? barsHeight(counts.length) : undefined}
    >
      <BarChart
        horizontal={horizontal}
        description={t('reporting.chartDescription', { title })}
        labels={counts.map((row) => row.label)}
        series={[{ label: cases, values: counts.map((row) => row.count) }]}
      />
    </Figure>
  );
}

/** The company's figures for the period: the summary, the key figures and the charts with their tables. */
export function Report({ report, periodText }: { report: ReportingResponse; periodText: string }) {
  const { t } = useTranslation('incidents');
  const named = (rows: readonly { name: string; count: number }[]) =>
    rows.map((row) => ({ label: row.name, count: row.count }));
  const common = { period: report.period };
  return (
    <>
      <p role="status" className="reporting-summary">
        {t('reporting.summary', { period: periodText, count: report.total })}
      </p>
      <KeyFigures report={report} />
      <div className="reporting-grid">
        <MonthFigure report={report} />
        <CountFigure
          {...common}
          horizontal
          title={t('reporting.figures.byCategory')}
          slug="cases-by-category"
          column={t('reporting.columns.category')}
          counts={named(report.by_category)}
        />
        <CountFigure
          {...common}
          horizontal
          title={t('reporting.figures.byLocation')}
          slug="cases-by-location"
          column={t('reporting.columns.location')}
          counts={named(report.by_location)}
        />
        <CountFigure
          {...common}
          title={t('reporting.figures.byStatus')}
          slug="cases-by-status"
          column={t('reporting.columns.status')}
          counts={report.by_status.map((row) => ({ label: t(`statuses.${row.status}`), count: row.count }))}
        />
        <CountFigure
          {...common}
          title={t('reporting.figures.byOutcome')}
          slug="closed-cases-by-outcome"
          column={t('reporting.columns.outcome')}
          counts={report.by_outcome.map((row) => ({ label: t(`outcomes.${row.outcome}`), count: row.count }))}
        />
      </div>
    </>
  );
}
