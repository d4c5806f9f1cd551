import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError, listCases } from '@whistle/api-client';
import type { IncidentListResponse } from '@whistle/contracts';
import { Button, SelectField, Spinner, TextField, useDocumentTitle, useLoad } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { CaseFilters } from './case-filters.component';
import { NumberSearch } from './number-search.component';
import { WordSearch } from './word-search.component';
import { CaseTable, type CaseSelection } from './case-table.component';
import { BulkActions } from './bulk-actions.component';
import { SavedViews } from './saved-views.component';
import { PAGE_SIZES, caseQueryOf, hasFilters, withPage, withPageSize } from './list-query';
import { CsvExport } from './csv-export.component';
import { useCompanyKey, useKeyringState } from '../case/use-company-key';
import { useIdentities } from './use-identities';
import { mayRecord } from '../staff-intake/may-record';
import '../case/case.css';

/** No case at all yet: what the list is for, and the link to hand out to employees. */
/** Who may assign (the server's rule for `assignee_uuids`: admins and reviewers), so bulk assignment too. */
const mayAssign = (roles: readonly string[]) => roles.includes('ADMIN') || roles.includes('REVIEWER');

function NoCaseYet() {
  const { t } = useTranslation('incidents');
  const staff = useStaffState();
  const link = staff && `${window.location.origin}/disclose/${encodeURIComponent(staff.company.url_identifier)}`;
  return (
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
  );
}

/**
 * Previous/Next at the first or last page: aria-disabled, not disabled, so the button that led there keeps the
 * keyboard focus (a disabled one drops it to the start of the page).
 */
function PageButton({ unavailable, onPress, children }: { unavailable: boolean; onPress(): void; children: string }) {
  return (
    <Button variant="secondary" aria-disabled={unavailable || undefined} onClick={unavailable ? undefined : onPress}>
      {children}
    </Button>
  );
}

/** Previous and next page; past the server's count limit the total is unknown. */
function Pager({ list }: { list: IncidentListResponse }) {
  const { t } = useTranslation('incidents');
  const [params, setParams] = useSearchParams();
  const pages = Math.max(1, Math.ceil(list.count / list.page_size));
  // Past the server's count limit the total is unknown: a full page means there may be another.
  const hasNext = list.count_capped ? list.results.length === list.page_size : list.page < pages;
  return (
    <nav className="case-pager" aria-label={t('list.pages')}>
      <PageButton unavailable={list.page <= 1} onPress={() => setParams(withPage(params, list.page - 1))}>
        {t('list.previous')}
      </PageButton>
      <span>{t(list.count_capped ? 'list.pageCapped' : 'list.page', { page: list.page, pages })}</span>
      <PageButton unavailable={!hasNext} onPress={() => setParams(withPage(params, list.page + 1))}>
        {t('list.next')}
      </PageButton>
      <SelectField
        name="page_size"
        label={t('list.pageSize')}
        options={PAGE_SIZES.map((size) => ({ value: size, label: size }))}
        value={String(list.page_size)}
        onChange={(event) => setParams(withPageSize(params, event.target.value))}
      />
    </nav>
  );
}

/**
 * The cases ticked on the page on screen: a new page, filter or sort starts with none (a selection never holds a
 * case the person no longer sees).
 */
function useSelection(of: string, items: readonly { uuid: string }[] | undefined) {
  const [state, setState] = useState<{ of: string; ids: ReadonlySet<string> }>({ of, ids: new Set() });
  const ids = state.of === of ? state.ids : new Set<string>();
  const set = (next: Iterable<string>) => setState({ of, ids: new Set(next) });
  const selection: CaseSelection = {
    selected: ids,
    toggle: (uuid, on) => set(on ? [...ids, uuid] : [...ids].filter((each) => each !== uuid)),
    toggleAll: (on) => set(on ? (items ?? []).map((item) => item.uuid) : []),
  };
  return { selection, set };
}

/**
 * /company/incidents: the cases the signed-in staff member may see, a page at a time from the server,
 * sorted and filtered as the page URL says (so a view can be bookmarked). Names are decrypted here, for
 * the visible page only, with the company key unlocked at sign-in.
 */
export function IncidentListPage() {
  const { t } = useTranslation('incidents');
  const session = useStaffSession();
  const [params] = useSearchParams();
  const queryText = params.toString();
  const query = useMemo(() => caseQueryOf(new URLSearchParams(queryText)), [queryText]);
  // The page on screen stays while the next one comes; every failure is worded here.
  const {
    data: list,
    error,
    reload,
  } = useLoad((signal) => listCases(session.api, query, signal), [session, query], {
    shows: () => true,
    keepPrevious: true,
  });
  const companyPrivateKey = useCompanyKey(session);
  const keyringState = useKeyringState(session);
  const { identities, locked } = useIdentities(
    list?.results,
    session.keyring,
    companyPrivateKey,
    companyPrivateKey && session.keyring.workerMaterial()?.previousCompanyPrivateKey,
    keyringState,
  );
  useDocumentTitle(t('list.title'));
  const filtered = hasFilters(params);
  const staff = useStaffState();
  const { selection, set: select } = useSelection(queryText, list?.results);
  const selected = list?.results.filter((item) => selection.selected.has(item.uuid)) ?? [];
  return (
    <>
      <div className="case-toolbar">
        <h1>{t('list.title')}</h1>
        {/* Before the export, which keeps to the right: the link shows once the profile is in and moves nothing. */}
        {staff && mayRecord(staff.profile.roles) && <Link to="/company/incidents/record">{t('record.action')}</Link>}
        <CsvExport session={session} query={query} />
      </div>
      {/* Keyed by the URL's number: clearing the filters empties the box too. */}
      <NumberSearch key={params.get('report_number') ?? ''} />
      <WordSearch session={session} />
      <CaseFilters />
      <SavedViews session={session} />
      {locked && list && list.count > 0 && <p className="wh-alert">{t('identity.lockedHelp')}</p>}
      {!list && error === undefined && <Spinner />}
      {error !== undefined && (
        <p className="wh-alert" role="alert">
          {isApiError(error) && error.status === 400 ? t('list.badQuery') : t('list.loadFailed')}
        </p>
      )}
      {list && list.count === 0 && !filtered && <NoCaseYet />}
      {list && list.count === 0 && filtered && (
        <p>
          {t('list.noMatch')} <Link to="/company/incidents">{t('list.clearFilters')}</Link>
        </p>
      )}
      {list && list.count > 0 && (
        <>
          <p aria-live="polite">
            {list.count_capped ? t('list.countCapped', { count: list.count }) : t('list.count', { count: list.count })}
          </p>
          <BulkActions
            session={session}
            selected={selected}
            sort={query.sort as string | undefined}
            mayAssign={mayAssign(staff?.profile.roles ?? [])}
            onAssigned={(outcome) => {
              // The cases that failed stay selected, to be tried again; the list shows who holds what now.
              select(outcome.failed.map((failure) => failure.uuid));
              void reload();
            }}
            onClear={() => select([])}
          />
          <CaseTable items={list.results} identities={identities} locked={locked} selection={selection} />
          <Pager list={list} />
        </>
      )}
    </>
  );
}
