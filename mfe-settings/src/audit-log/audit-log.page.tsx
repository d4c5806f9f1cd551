import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { fieldErrorsOf, listAuditLog } from '@whistle/api-client';
import { Button, Spinner, useDocumentTitle, useLoad } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { AuditLogFilters } from './audit-log-filters.component';
import {
  FORM_FILTERS,
  auditParamsOf,
  errorsByParameter,
  filterValuesOf,
  withFilters,
  withPage,
} from './audit-log-query';
import { AuditLogTable } from './audit-log-table.component';
import { AuditLogTools } from './audit-log-tools.component';

/**
 * /company/settings/audit-log (ADMIN): the company's audit trail, newest first, a page at a time,
 * filtered as the page URL says; its CSV export and the check of its hash chain.
 */
export function AuditLogPage() {
  const { t } = useTranslation('settings');
  const { api } = useStaffSession();
  const [params, setParams] = useSearchParams();
  const queryText = params.toString();
  const query = useMemo(() => auditParamsOf(new URLSearchParams(queryText)), [queryText]);
  // Every failure is worded here: a refused filter by its field, anything else as 'could not be loaded'.
  const {
    data: log,
    error,
    loading,
  } = useLoad((signal) => listAuditLog(api, query, signal), [api, query], {
    shows: () => true,
  });
  useDocumentTitle(t('auditLog.title'));
  const refused = fieldErrorsOf(error);
  const errors = refused ? errorsByParameter(refused) : {};
  const pages = log ? Math.max(1, Math.ceil(log.count / log.page_size)) : 1;
  return (
    <>
      <h1>{t('auditLog.title')}</h1>
      <p>{t('auditLog.intro')}</p>
      <AuditLogTools filters={query} />
      {/* Keyed by the URL: back and forward show the filters of the page they return to. */}
      <AuditLogFilters
        key={queryText}
        initial={filterValuesOf(params)}
        errors={errors}
        onApply={(values) => setParams(withFilters(params, values))}
      />
      {loading && <Spinner />}
      {refused && (
        <div className="wh-alert" role="alert">
          <p>{t('auditLog.badQuery')}</p>
          {/* Parameters the form does not show (a link's object or case, the page) are named here. */}
          {Object.entries(errors)
            .filter(([parameter]) => !(FORM_FILTERS as readonly string[]).includes(parameter))
            .map(([parameter, message]) => (
              <p key={parameter}>{message}</p>
            ))}
        </div>
      )}
      {error !== undefined && !refused && (
        <p className="wh-alert" role="alert">
          {t('auditLog.loadFailed')}
        </p>
      )}
      {log && (
        <>
          <p aria-live="polite">{t('auditLog.count', { count: log.count })}</p>
          {log.count === 0 ? (
            <p>
              {t('auditLog.noMatch')} <Link to="/company/settings/audit-log">{t('auditLog.clear')}</Link>
            </p>
          ) : (
            <AuditLogTable entries={log.results} />
          )}
          {pages > 1 && (
            <nav className="settings-pager" aria-label={t('auditLog.pages')}>
              <Button
                variant="secondary"
                disabled={log.page <= 1}
                onClick={() => setParams(withPage(params, log.page - 1))}
              >
                {t('auditLog.previous')}
              </Button>
              <span>{t('auditLog.page', { page: log.page, pages })}</span>
              <Button
                variant="secondary"
                disabled={log.page >= pages}
                onClick={() => setParams(withPage(params, log.page + 1))}
              >
                {t('auditLog.next')}
              </Button>
            </nav>
          )}
        </>
      )}
    </>
  );
}
