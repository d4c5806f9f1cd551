import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { getReporting, isApiError } from '@whistle/api-client';
import { formatDayRange, MessagePage, Spinner, useDocumentTitle, useLoad } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { MAX_YEARS, periodOf, periodProblem, withPeriod } from './period';
import { PeriodForm } from './period-form.component';
import { Report } from './report.component';
import '../case/case.css';
import './reporting.css';

/** 403: the caller may not see the figures; 400: the server refused the period. */
const isRefusal = (error: unknown) => isApiError(error) && (error.status === 403 || error.status === 400);

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
  const { from, to } = period;
  const urlProblem = periodProblem(period);
  // A period the page already knows to be wrong is not asked for. An answer for another period never shows.
  const { data: report, error } = useLoad(
    (signal) => (urlProblem ? Promise.resolve(undefined) : getReporting(session.api, { from, to }, signal)),
    [session, from, to, urlProblem],
    { shows: isRefusal },
  );
  useDocumentTitle(t('reporting.title'));

  if (isApiError(error) && error.status === 403)
    return (
      <MessagePage title={t('reporting.forbiddenTitle')} role="alert">
        <p>{t('reporting.forbidden')}</p>
      </MessagePage>
    );

  const refused = urlProblem ?? (error !== undefined ? 'refused' : undefined);
  return (
    <>
      <div className="case-toolbar">
        <h1>{t('reporting.title')}</h1>
      </div>
      {/* Keyed by the period: the form's dates start again from the URL's whenever it changes. */}
      <PeriodForm
        key={`${from}/${to}`}
        period={period}
        today={today}
        onChange={(next) => setParams(withPeriod(params, next))}
      />
      {refused && (
        <p className="wh-alert" role="alert">
          {t(`reporting.problems.${refused}`, { years: MAX_YEARS })}
        </p>
      )}
      {!refused && !report && <Spinner />}
      {report && <Report report={report} periodText={formatDayRange(from, to, i18n.language)} />}
    </>
  );
}
