import type { AuditLogParams } from '@whistle/api-client';

/** The filters the page offers, kept in its URL (so a filtered view can be bookmarked and shared). */
export const FORM_FILTERS = ['table_identifiers', 'action', 'user', 'from', 'to'] as const;
export type FormFilter = (typeof FORM_FILTERS)[number];
/** Also read from the URL, though not in the form: a link may narrow the log to one object or case. */
const URL_FILTERS = ['object', 'incident'] as const;

export type FilterValues = Record<FormFilter, string>;

/** The list's request for what the page URL says (the server checks the values). */
export function auditParamsOf(params: URLSearchParams): AuditLogParams {
  const query: AuditLogParams = {};
  for (const key of [...FORM_FILTERS, ...URL_FILTERS]) {
    const value = params.get(key);
    if (value) query[key] = value;
  }
  const page = params.get('page');
  if (page) query.page = page;
  return query;
}

/** What the form shows for the page URL. */
export const filterValuesOf = (params: URLSearchParams): FilterValues =>
  Object.fromEntries(FORM_FILTERS.map((key) => [key, params.get(key) ?? ''])) as FilterValues;

/** The page URL after the form was applied: back to page 1; empty values leave their filter out. */
export function withFilters(params: URLSearchParams, values: FilterValues): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('page');
  for (const key of FORM_FILTERS) {
    next.delete(key);
    if (values[key]) next.set(key, values[key]);
  }
  return next;
}

export function withPage(params: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(params);
  if (page <= 1) next.delete('page');
  else next.set('page', String(page));
  return next;
}

/** The server's 400 `errors` by query parameter (`table_identifiers.0` is about `table_identifiers`). */
export function errorsByParameter(errors: Record<string, string[]>): Record<string, string> {
  const byParameter: Record<string, string> = {};
  for (const [path, messages] of Object.entries(errors)) {
    const parameter = path.split('.')[0]!;
    byParameter[parameter] ??= messages.join(' ');
  }
  return byParameter;
}
