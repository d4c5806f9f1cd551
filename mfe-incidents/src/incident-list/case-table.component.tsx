import { useTranslation } from 'react-i18next';
import { useEffect, useId, useRef, type MouseEvent } from 'react';
import { Link, useHref, useNavigate, useSearchParams } from 'react-router';
import type { IncidentListItem } from '@whistle/contracts';
import { formatDateTime } from '@whistle/ui';
import type { Identity } from '../case/case-key';
import { ClockBadges } from '../case/clock-badges.component';
import { sortDirectionOf, withSort, type SortKey } from './list-query';

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

/**
 * The reporter's messages this person has not been shown yet (the server's read state, per person): a dot and the
 * words, which also describe the row's link for screen readers.
 */
function UnreadMarker({ id, count }: { id: string; count: number }) {
  const { t } = useTranslation('incidents');
  return (
    <span id={id} className="case-unread">
      <span className="case-unread__dot" aria-hidden="true" />
      {t('list.unread', { count })}
    </span>
  );
}

function SortHeader({ sortKey }: { sortKey: SortKey }) {
  const { t } = useTranslation('incidents');
  const [params, setParams] = useSearchParams();
  const direction = sortDirectionOf(params, sortKey);
  return (
    <th scope="col" aria-sort={direction}>
      <button type="button" onClick={() => setParams(withSort(params, sortKey))}>
        {t(`list.columns.${sortKey}`)} {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : ''}
      </button>
    </th>
  );
}

/** The cases ticked in the list (their ids), and how to tick one or the whole page. */
export interface CaseSelection {
  selected: ReadonlySet<string>;
  toggle(uuid: string, on: boolean): void;
  toggleAll(on: boolean): void;
}

/** "Select all on this page": ticked when every row is, mixed when some are. */
function SelectAll({ items, selection }: { items: readonly IncidentListItem[]; selection: CaseSelection }) {
  const { t } = useTranslation('incidents');
  const box = useRef<HTMLInputElement>(null);
  const ticked = items.filter((item) => selection.selected.has(item.uuid)).length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = ticked > 0 && ticked < items.length;
  }, [ticked, items.length]);
  return (
    <th scope="col" className="case-table__select">
      <label>
        <input
          ref={box}
          type="checkbox"
          checked={items.length > 0 && ticked === items.length}
          onChange={(event) => selection.toggleAll(event.target.checked)}
        />
        <span className="wh-visually-hidden case-table__select-all">{t('bulk.selectPage')}</span>
      </label>
    </th>
  );
}

/** A click on something of its own (the number link, the selection checkbox) or a text selection is not a row click. */
const INTERACTIVE = 'a, button, input, select, textarea, label, summary, [role="button"]';
function isRowClick(event: MouseEvent<HTMLTableRowElement>) {
  const target = event.target as Element;
  return !target.closest(INTERACTIVE) && !window.getSelection()?.toString();
}

function CaseRow({
  item,
  identity,
  locked,
  selection,
}: {
  item: IncidentListItem;
  identity: Identity | undefined;
  locked: boolean;
  selection: CaseSelection | undefined;
}) {
  const { t, i18n } = useTranslation('incidents');
  const navigate = useNavigate();
  const to = `/company/incidents/${item.uuid}`;
  const href = useHref(to);
  const unreadId = useId();
  const unread = item.unread_messages ?? 0;
  // The whole row opens the case for the mouse; the number link stays the one way to open it for the keyboard,
  // screen readers and "open in new tab", so the row adds no tab stop of its own (the selection box is not a link).
  const onClick = (event: MouseEvent<HTMLTableRowElement>) => {
    if (event.button !== 0 || !isRowClick(event)) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey) window.open(href, '_blank', 'noopener');
    else void navigate(to);
  };
  return (
    <tr className={unread > 0 ? 'case-table__row case-table__row--unread' : 'case-table__row'} onClick={onClick}>
      {selection && (
        <td className="case-table__select">
          <label>
            <input
              type="checkbox"
              checked={selection.selected.has(item.uuid)}
              onChange={(event) => selection.toggle(item.uuid, event.target.checked)}
            />
            <span className="wh-visually-hidden">{t('bulk.selectCase', { number: item.display_report_number })}</span>
          </label>
        </td>
      )}
      <td data-label={t('list.columns.number')}>
        <Link to={to} aria-describedby={unread > 0 ? unreadId : undefined}>
          {t('list.number', { number: item.display_report_number })}
        </Link>
        {unread > 0 && <UnreadMarker id={unreadId} count={unread} />}
      </td>
      <td data-label={t('list.columns.category__name')}>
        <Categories item={item} />
      </td>
      <td data-label={t('list.columns.location')}>{item.location.name}</td>
      <td data-label={t('list.columns.identity')}>
        <IdentityCell identity={identity} locked={locked} />
      </td>
      <td data-label={t('list.columns.assignees')}>
        {item.assignees.length > 0 ? (
          item.assignees.map((person) => person.full_name).join(', ')
        ) : (
          <span className="case-muted">{t('list.unassigned')}</span>
        )}
      </td>
      <td data-label={t('list.columns.status')}>
        <span className="case-status">{t(`statuses.${item.status.name}`)}</span>
      </td>
      <td data-label={t('list.columns.created')}>{formatDateTime(item.created, i18n.language)}</td>
      <td data-label={t('list.columns.last_activity_at')}>{formatDateTime(item.last_activity_at, i18n.language)}</td>
      <td data-label={t('list.columns.clocks')}>
        <ClockBadges clocks={item.clocks} />
      </td>
    </tr>
  );
}

/**
 * One page of cases; identities are decrypted in the browser (or locked without the company key). With a `selection`,
 * each row has a checkbox naming its case, and the header one for the whole page.
 */
export function CaseTable({
  items,
  identities,
  locked,
  selection,
}: {
  items: readonly IncidentListItem[];
  identities: ReadonlyMap<string, Identity>;
  locked: boolean;
  selection?: CaseSelection;
}) {
  const { t } = useTranslation('incidents');
  return (
    <table className="case-table">
      <caption className="wh-visually-hidden">{t('list.caption')}</caption>
      <thead>
        <tr>
          {selection && <SelectAll items={items} selection={selection} />}
          <th scope="col">{t('list.columns.number')}</th>
          <SortHeader sortKey="category__name" />
          <th scope="col">{t('list.columns.location')}</th>
          <th scope="col">{t('list.columns.identity')}</th>
          <th scope="col">{t('list.columns.assignees')}</th>
          <th scope="col">{t('list.columns.status')}</th>
          <SortHeader sortKey="created" />
          <SortHeader sortKey="last_activity_at" />
          <SortHeader sortKey="next_due_at" />
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <CaseRow
            key={item.uuid}
            item={item}
            identity={identities.get(item.uuid)}
            locked={locked}
            selection={selection}
          />
        ))}
      </tbody>
    </table>
  );
}
