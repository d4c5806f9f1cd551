import type { CaseQuery } from '@whistle/api-client';
import { savedViewFiltersOfQuerySchema, savedViewQueryOf, type SavedViewFilters } from '@whistle/contracts';

/** The list's filters, kept in the page URL so a filtered view can be bookmarked and shared. */
export const FILTER_KEYS = [
  'status',
  'category',
  'location',
  'channel',
  'assigned_to_me',
  'assignee',
  'unassigned',
  'overdue',
  'report_number',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export const SORTABLE = ['last_activity_at', 'created', 'category__name', 'next_due_at'] as const;
export type SortKey = (typeof SORTABLE)[number];
/** Deadlines are looked at soonest first; dates and names newest / last first. */
const ASCENDING_FIRST: readonly SortKey[] = ['next_due_at'];
export const DEFAULT_SORT = '-last_activity_at';

/** The API query for what the page URL says (only the parameters the list knows; the server checks values). */
export function caseQueryOf(params: URLSearchParams): CaseQuery {
  const query: CaseQuery = {};
  for (const key of [...FILTER_KEYS, 'sort', 'page', 'page_size'] as const) {
    const values = params.getAll(key).filter(Boolean);
    if (values.length > 0) query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

/** The page URL after a filter changed: back to page 1; an empty value removes the filter. */
export function withFilter(params: URLSearchParams, key: FilterKey, value: string): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(key);
  next.delete('page');
  if (value) next.set(key, value);
  return next;
}

/**
 * The page URL sorted by `key`: the same key again flips its direction; a new key sorts descending first,
 * except the next deadline, soonest first.
 */
export function withSort(params: URLSearchParams, key: SortKey): URLSearchParams {
  const current = params.get('sort') ?? DEFAULT_SORT;
  const next = new URLSearchParams(params);
  next.delete('page');
  const first = ASCENDING_FIRST.includes(key) ? key : `-${key}`;
  const flipped = first === key ? `-${key}` : key;
  next.set('sort', current === first ? flipped : first);
  return next;
}

/** The page sizes offered; the server's default (20) needs no parameter in the URL. */
export const PAGE_SIZES = ['10', '20', '50', '100'] as const;
export const DEFAULT_PAGE_SIZE = '20';

/** The page URL showing `size` cases a page, from the first page again (the old page number means other cases). */
export function withPageSize(params: URLSearchParams, size: string): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('page');
  if (size === DEFAULT_PAGE_SIZE) next.delete('page_size');
  else next.set('page_size', size);
  return next;
}

export function withPage(params: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(params);
  if (page <= 1) next.delete('page');
  else next.set('page', String(page));
  return next;
}

/** How the list is sorted by `key` now, for `aria-sort`. */
export function sortDirectionOf(params: URLSearchParams, key: SortKey): 'ascending' | 'descending' | 'none' {
  const current = params.get('sort') ?? DEFAULT_SORT;
  if (current === key) return 'ascending';
  if (current === `-${key}`) return 'descending';
  return 'none';
}

export const hasFilters = (params: URLSearchParams) => FILTER_KEYS.some((key) => params.has(key));

/** The report number typed in the search box ("12", "#12", " # 12 "), or null when it is none; '' clears the search. */
export function reportNumberOf(text: string): string | null {
  const digits = text.replace(/\s+/g, '').replace(/^#/, '');
  if (digits === '') return '';
  return /^[1-9]\d{0,9}$/.test(digits) && Number(digits) <= 2_147_483_647 ? digits : null;
}

/** The assignee filter's choice: a person's id, NOBODY for unassigned cases, '' for everyone's. */
export const NOBODY = 'nobody';
export const assigneeChoiceOf = (params: URLSearchParams) =>
  params.get('unassigned') === 'true' ? NOBODY : (params.get('assignee') ?? '');

export function withAssignee(params: URLSearchParams, choice: string): URLSearchParams {
  const next = withFilter(withFilter(params, 'unassigned', ''), 'assignee', choice === NOBODY ? '' : choice);
  if (choice === NOBODY) next.set('unassigned', 'true');
  return next;
}

/**
 * What a saved view keeps of the page URL: the list's filters, sort and page size as the list reads them (no page
 * number); null when the URL holds a value the list refuses too.
 */
export function savedViewFiltersOf(params: URLSearchParams): SavedViewFilters | null {
  const parsed = savedViewFiltersOfQuerySchema.safeParse(caseQueryOf(params));
  if (!parsed.success) return null;
  return Object.fromEntries(
    Object.entries(parsed.data).filter(([, value]) => value !== undefined && !(Array.isArray(value) && !value.length)),
  ) as SavedViewFilters;
}

/** The page URL's query (without '?') that opens a saved view's filters. */
export const savedViewSearchOf = (filters: SavedViewFilters) =>
  new URLSearchParams(savedViewQueryOf(filters)).toString();
