import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError, listCases } from '@whistle/api-client';
import type { IncidentListItem, IncidentListResponse, ReportChannel } from '@whistle/contracts';
import { Button, SelectField, Spinner, TextField, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import type { Identity } from '../case/case-key';
import { INCIDENT_STATUSES } from '../case/case-vocabulary';
import { ClockBadges } from '../case/clock-badges.component';
import { formatDateTime } from '../case/format';
import {
  caseQueryOf,
  hasFilters,
  sortDirectionOf,
  withFilter,
  withPage,
  withSort,
  type FilterKey,
  type SortKey,
} from './list-query';
import { CsvExport } from './csv-export.component';
import { useIdentities } from './use-identities';
import '../case/case.css';

const CHANNELS: readonly ReportChannel[] = ['online', 'telephone', 'internal'];

function IdentityCell({ identity, locked }: { identity: Identity | undefined; locked: boolean }) {
  const { t } = useTranslation('incidents');
  if (identity?.kind === 'named') return <>{identity.name}</>;
  if (identity) return <>{t(`identity.${identity.kind}`)}</>;
  return <span className="case-muted">{locked ? t('identity.locked') : t('identity.decrypting')}</span>;
}

function Categories({ item }: { item: IncidentListItem }) {
  const top = item.management_categories.filter((category) => category.parent_uuid === null);
  const sub = item.management_categories.filter((category) => category.parent_uuid !== null);
  return (
    <>
      {top.map((category) => category.name).join(', ')}
      {sub.length > 0 && <div className="case-muted">{sub.map((category) => category.name).join(', ')}</div>}
    </>
  );
}

function SortHeader({ sortKey, params }: { sortKey: SortKey; params: URLSearchParams }) {
  const { t } = useTranslation('incidents');
  const [, setParams] = useSearchParams();
  const direction = sortDirectionOf(params, sortKey);
  return (
    <th scope="col" aria-sort={direction}>
      <button type="button" onClick={() => setParams(withSort(params, sortKey))}>
        {t(`list.columns.${sortKey}`)} {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : ''}
      </button>
    </th>
  );
}

/**
 * /company/incidents: the cases the signed-in staff member may see, a page at a time from the server,
 * sorted and filtered as the page URL says (so a view can be bookmarked). Names are decrypted here, for
 * the visible page only, with the company key unlocked at sign-in.
 */
export function IncidentListPage() {
  const { t, i18n } = useTranslation('incidents');
  const session = useStaffSession();
  const staff = useStaffState();
  const [params, setParams] = useSearchParams();
  const queryText = params.toString();
  const query = useMemo(() => caseQueryOf(new URLSearchParams(queryText)), [queryText]);
  const [answer, setAnswer] = useState<{ list: IncidentListResponse } | { failed: number | null }>();
  const { identities, locked } = useIdentities(
    answer && 'list' in answer ? answer.list.results : undefined,
    session.companyPrivateKey(),
  );
  useDocumentTitle(t('list.title'));

  useEffect(() => {
    const controller = new AbortController();
    listCases(session.api, query, controller.signal).then(
      (list) => setAnswer({ list }),
      (error: unknown) => {
        if (!controller.signal.aborted) setAnswer({ failed: isApiError(error) ? error.status : null });
      },
    );
    return () => controller.abort();
  }, [session, query]);

  const setFilter = (key: FilterKey, value: string) => setParams(withFilter(params, key, value));
  const filterOptions = (values: readonly string[], label: (value: string) => string) =>
    values.map((value) => ({ value, label: label(value) }));
  const link = staff && `${window.location.origin}/disclose/${encodeURIComponent(staff.company.url_identifier)}`;

  const list = answer && 'list' in answer ? answer.list : undefined;
  const pages = list ? Math.max(1, Math.ceil(list.count / list.page_size)) : 1;
  // Past the server's count limit the total is unknown: a full page means there may be another.
  const hasNext = list ? (list.count_capped ? list.results.length === list.page_size : list.page < pages) : false;
  return (
    <>
      <div className="case-toolbar">
        <h1>{t('list.title')}</h1>
        <CsvExport session={session} query={query} />
      </div>

      <form
        className="case-filters wh-card"
        aria-label={t('filters.label')}
        onSubmit={(event) => event.preventDefault()}
      >
        <SelectField
          name="status"
          label={t('filters.status')}
          placeholder={t('filters.all')}
          value={params.get('status') ?? ''}
          onChange={(event) => setFilter('status', event.target.value)}
          options={filterOptions(INCIDENT_STATUSES, (status) => t(`statuses.${status}`))}
        />
        <SelectField
          name="category"
          label={t('filters.category')}
          placeholder={t('filters.all')}
          value={params.get('category') ?? ''}
          onChange={(event) => setFilter('category', event.target.value)}
          options={(staff?.company.categories ?? []).map((category) => ({
            value: category.uuid,
            label: category.name,
          }))}
        />
        <SelectField
          name="location"
          label={t('filters.location')}
          placeholder={t('filters.all')}
          value={params.get('location') ?? ''}
          onChange={(event) => setFilter('location', event.target.value)}
          options={(staff?.company.locations ?? []).map((location) => ({ value: location.uuid, label: location.name }))}
        />
        <SelectField
          name="channel"
          label={t('filters.channel')}
          placeholder={t('filters.all')}
          value={params.get('channel') ?? ''}
          onChange={(event) => setFilter('channel', event.target.value)}
          options={filterOptions(CHANNELS, (channel) => t(`channels.${channel}`))}
        />
        <label className="case-checkbox">
          <input
            type="checkbox"
            checked={params.get('assigned_to_me') === 'true'}
            onChange={(event) => setFilter('assigned_to_me', event.target.checked ? 'true' : '')}
          />{' '}
          {t('filters.assignedToMe')}
        </label>
        <label className="case-checkbox">
          <input
            type="checkbox"
            checked={params.get('overdue') === 'true'}
            onChange={(event) => setFilter('overdue', event.target.checked ? 'true' : '')}
          />{' '}
          {t('filters.overdue')}
        </label>
      </form>

      {locked && list && list.count > 0 && <p className="wh-alert">{t('identity.lockedHelp')}</p>}
      {!answer && <Spinner />}
      {answer && 'failed' in answer && (
        <p className="wh-alert" role="alert">
          {answer.failed === 400 ? t('list.badQuery') : t('list.loadFailed')}
        </p>
      )}
      {list && list.count === 0 && !hasFilters(params) && (
        <section className="wh-card wh-stack" aria-labelledby="incidents-empty">
          <h2 id="incidents-empty">{t('list.emptyTitle')}</h2>
          <p>{t('list.emptyDescription')}</p>
          {link && (
            <TextField
              name="disclosure_link"
              label={t('list.linkLabel')}
              value={link}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
            />
          )}
        </section>
      )}
      {list && list.count === 0 && hasFilters(params) && (
        <p>
          {t('list.noMatch')} <Link to="/company/incidents">{t('list.clearFilters')}</Link>
        </p>
      )}
      {list && list.count > 0 && (
        <>
          <p aria-live="polite">
            {list.count_capped ? t('list.countCapped', { count: list.count }) : t('list.count', { count: list.count })}
          </p>
          <table className="case-table">
            <caption className="wh-visually-hidden">{t('list.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('list.columns.number')}</th>
                <SortHeader sortKey="category__name" params={params} />
                <th scope="col">{t('list.columns.location')}</th>
                <th scope="col">{t('list.columns.identity')}</th>
                <th scope="col">{t('list.columns.status')}</th>
                <SortHeader sortKey="created" params={params} />
                <SortHeader sortKey="last_activity_at" params={params} />
                <th scope="col">{t('list.columns.clocks')}</th>
              </tr>
            </thead>
            <tbody>
              {list.results.map((item) => (
                <tr key={item.uuid}>
                  <td data-label={t('list.columns.number')}>
                    <Link to={`/company/incidents/${item.uuid}`}>
                      {t('list.number', { number: item.display_report_number })}
                    </Link>
                  </td>
                  <td data-label={t('list.columns.category__name')}>
                    <Categories item={item} />
                  </td>
                  <td data-label={t('list.columns.location')}>{item.location.name}</td>
                  <td data-label={t('list.columns.identity')}>
                    <IdentityCell identity={identities.get(item.uuid)} locked={locked} />
                  </td>
                  <td data-label={t('list.columns.status')}>
                    <span className="case-status">{t(`statuses.${item.status.name}`)}</span>
                  </td>
                  <td data-label={t('list.columns.created')}>{formatDateTime(item.created, i18n.language)}</td>
                  <td data-label={t('list.columns.last_activity_at')}>
                    {formatDateTime(item.last_activity_at, i18n.language)}
                  </td>
                  <td data-label={t('list.columns.clocks')}>
                    <ClockBadges clocks={item.clocks} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="case-pager" aria-label={t('list.pages')}>
            <Button
              variant="secondary"
              disabled={list.page <= 1}
              onClick={() => setParams(withPage(params, list.page - 1))}
            >
              {t('list.previous')}
            </Button>
            <span>{t(list.count_capped ? 'list.pageCapped' : 'list.page', { page: list.page, pages })}</span>
            <Button variant="secondary" disabled={!hasNext} onClick={() => setParams(withPage(params, list.page + 1))}>
              {t('list.next')}
            </Button>
          </nav>
        </>
      )}
    </>
  );
}
