import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { getReporting, isApiError } from '@whistle/api-client';
import type { ReportChannel, ReportingMedian, ReportingResponse, ReportingShare } from '@whistle/contracts';
import { Button, MessagePage, SelectField, Spinner, TextField, useDocumentTitle } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { BarChart } from './charts';
import { Figure, type Cell } from './figure.component';
import {
  MAX_YEARS,
  PRESETS,
  periodOf,
  periodProblem,
  presetOf,
  presetPeriod,
  withPeriod,
  type Period,
  type PeriodProblem,
  type Preset,
} from './period';
import '../case/case.css';
import './reporting.css';

// The contracts' channel order, as a type-checked list (importing the values would bring zod to the page).
const CHANNELS: readonly ReportChannel[] = ['online', 'telephone', 'internal'];
const CUSTOM = 'custom';

type Answer = { key: string } & ({ report: ReportingResponse } | { failed: 'forbidden' | 'period' });

/**
 * /company/reporting (ADMIN): the company's figures for a period kept in the page URL. Every number is
 * counted by the server from what it may see; each chart has its table and a CSV file of it.
 */
export function ReportingPage() {
  const { t, i18n } = useTranslation('incidents');
  const session = useStaffSession();
  const [params, setParams] = useSearchParams();
  const today = useMemo(() => new Date(), []);
  const period = periodOf(params, today);
  const key = `${period.from}/${period.to}`;
  const urlProblem = periodProblem(period);
  const [answers, setAnswers] = useState<Answer>();
  const [failure, setFailure] = useState<{ error: unknown }>();
  useDocumentTitle(t('reporting.title'));

  useEffect(() => {
    if (urlProblem) return;
    const [from, to] = key.split('/') as [string, string];
    const controller = new AbortController();
    getReporting(session.api, { from, to }, controller.signal).then(
      (report) => setAnswers({ key, report }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error) && error.status === 403) setAnswers({ key, failed: 'forbidden' });
        else if (isApiError(error) && error.status === 400) setAnswers({ key, failed: 'period' });
        else setFailure({ error });
      },
    );
    return () => controller.abort();
  }, [session, key, urlProblem]);

  if (failure) throw failure.error;
  // An answer for another period is not shown while this one's comes.
  const answer = answers?.key === key ? answers : undefined;
  if (answer && 'failed' in answer && answer.failed === 'forbidden')
    return (
      <MessagePage title={t('reporting.forbiddenTitle')} role="alert">
        <p>{t('reporting.forbidden')}</p>
      </MessagePage>
    );

  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const utcDay = (day: string) => dates.format(new Date(`${day}T00:00:00Z`));
  const refused = urlProblem ?? (answer && 'failed' in answer ? 'refused' : undefined);

  return (
    <>
      <div className="case-toolbar">
        <h1>{t('reporting.title')}</h1>
      </div>
      {/* Keyed by the period: the form's dates start again from the URL's whenever it changes. */}
      <PeriodForm key={key} period={period} today={today} onChange={(next) => setParams(withPeriod(params, next))} />
      {refused && (
        <p className="wh-alert" role="alert">
          {t(`reporting.problems.${refused}`, { years: MAX_YEARS })}
        </p>
      )}
      {!refused && !answer && <Spinner />}
      {answer && 'report' in answer && (
        <Report report={answer.report} periodText={`${utcDay(period.from)} – ${utcDay(period.to)}`} />
      )}
    </>
  );
}

/** The period chooser: a preset applies at once; typed dates when shown, after a check. */
function PeriodForm({ period, today, onChange }: { period: Period; today: Date; onChange(next: Period): void }) {
  const { t } = useTranslation('incidents');
  const [draft, setDraft] = useState<Period>(period);
  const [problem, setProblem] = useState<PeriodProblem>();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = periodProblem(draft);
    setProblem(found);
    if (!found) onChange(draft);
  };
  return (
    <>
      <form className="case-filters reporting-period" onSubmit={apply} aria-label={t('reporting.period')}>
        <SelectField
          name="preset"
          label={t('reporting.preset')}
          value={presetOf(period, today) ?? CUSTOM}
          onChange={(event) => {
            if (event.target.value !== CUSTOM) onChange(presetPeriod(event.target.value as Preset, today));
          }}
          options={[
            ...PRESETS.map((preset) => ({ value: preset, label: t(`reporting.presets.${preset}`) })),
            { value: CUSTOM, label: t('reporting.presets.custom') },
          ]}
        />
        <TextField
          name="from"
          type="date"
          label={t('reporting.from')}
          value={draft.from}
          onChange={(event) => setDraft({ ...draft, from: event.target.value })}
        />
        <TextField
          name="to"
          type="date"
          label={t('reporting.to')}
          value={draft.to}
          onChange={(event) => setDraft({ ...draft, to: event.target.value })}
        />
        <Button type="submit" variant="secondary">
          {t('reporting.apply')}
        </Button>
      </form>
      {problem && (
        <p className="wh-alert" role="alert">
          {t(`reporting.problems.${problem}`, { years: MAX_YEARS })}
        </p>
      )}
    </>
  );
}

function Report({ report, periodText }: { report: ReportingResponse; periodText: string }) {
  const { t, i18n } = useTranslation('incidents');
  const language = i18n.language;
  const monthName = new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const months = report.by_month.map((row) => ({
    text: monthName.format(new Date(`${row.month}-01T00:00:00Z`)),
    csv: row.month,
  }));
  const cases = t('reporting.columns.cases');
  const period = report.period;
  const chartOf = (title: string) => t('reporting.chartDescription', { title });

  const monthTitle = t('reporting.figures.perMonth');
  const categoryTitle = t('reporting.figures.byCategory');
  const locationTitle = t('reporting.figures.byLocation');
  const statusTitle = t('reporting.figures.byStatus');
  const outcomeTitle = t('reporting.figures.byOutcome');
  const monthRows: Cell[][] = report.by_month.map((row, index) => [
    months[index]!,
    ...CHANNELS.map((channel) => row.channels[channel]),
    CHANNELS.reduce((sum, channel) => sum + row.channels[channel], 0),
  ]);

  return (
    <>
      <p role="status" className="reporting-summary">
        {t('reporting.summary', { period: periodText, count: report.total })}
      </p>
      <KeyFigures report={report} />
      <div className="reporting-grid">
        <Figure
          title={monthTitle}
          slug="cases-per-month"
          period={period}
          columns={[
            t('reporting.columns.month'),
            ...CHANNELS.map((c) => t(`channels.${c}`)),
            t('reporting.columns.total'),
          ]}
          rows={monthRows}
        >
          <BarChart
            stacked
            description={chartOf(monthTitle)}
            labels={months.map((month) => month.text)}
            series={CHANNELS.map((channel) => ({
              label: t(`channels.${channel}`),
              values: report.by_month.map((row) => row.channels[channel]),
            }))}
          />
        </Figure>
        <Figure
          title={categoryTitle}
          slug="cases-by-category"
          period={period}
          columns={[t('reporting.columns.category'), cases]}
          rows={report.by_category.map((row) => [row.name, row.count])}
          height={barsHeight(report.by_category.length)}
        >
          <BarChart
            horizontal
            description={chartOf(categoryTitle)}
            labels={report.by_category.map((row) => row.name)}
            series={[{ label: cases, values: report.by_category.map((row) => row.count) }]}
          />
        </Figure>
        <Figure
          title={locationTitle}
          slug="cases-by-location"
          period={period}
          columns={[t('reporting.columns.location'), cases]}
          rows={report.by_location.map((row) => [row.name, row.count])}
          height={barsHeight(report.by_location.length)}
        >
          <BarChart
            horizontal
            description={chartOf(locationTitle)}
            labels={report.by_location.map((row) => row.name)}
            series={[{ label: cases, values: report.by_location.map((row) => row.count) }]}
          />
        </Figure>
        <Figure
          title={statusTitle}
          slug="cases-by-status"
          period={period}
          columns={[t('reporting.columns.status'), cases]}
          rows={report.by_status.map((row) => [t(`statuses.${row.status}`), row.count])}
        >
          <BarChart
            description={chartOf(statusTitle)}
            labels={report.by_status.map((row) => t(`statuses.${row.status}`))}
            series={[{ label: cases, values: report.by_status.map((row) => row.count) }]}
          />
        </Figure>
        <Figure
          title={outcomeTitle}
          slug="closed-cases-by-outcome"
          period={period}
          columns={[t('reporting.columns.outcome'), cases]}
          rows={report.by_outcome.map((row) => [t(`outcomes.${row.outcome}`), row.count])}
        >
          <BarChart
            description={chartOf(outcomeTitle)}
            labels={report.by_outcome.map((row) => t(`outcomes.${row.outcome}`))}
            series={[{ label: cases, values: report.by_outcome.map((row) => row.count) }]}
          />
        </Figure>
      </div>
    </>
  );
}

/** Horizontal bars: room for each name, within bounds. */
const barsHeight = (bars: number) => Math.min(600, Math.max(160, 40 + bars * 32));

/** The tiles: medians, the directive's shares, and the company now. */
function KeyFigures({ report }: { report: ReportingResponse }) {
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
