import {
  caseQueryOf,
  hasFilters,
  savedViewFiltersOf,
  savedViewSearchOf,
  sortDirectionOf,
  withFilter,
  withPage,
  withPageSize,
  withSort,
} from './list-query';

describe('list query in the page URL', () => {
  it('when the URL holds filters, sort and page, then the API query has exactly those, lists kept as lists', () => {
    const params = new URLSearchParams('status=NEW&status=CLOSED&overdue=true&sort=created&page=3&utm=x');
    expect(caseQueryOf(params)).toEqual({ status: ['NEW', 'CLOSED'], overdue: 'true', sort: 'created', page: '3' });
    expect(hasFilters(params)).toBe(true);
    expect(hasFilters(new URLSearchParams('sort=created'))).toBe(false);
  });

  it('when a filter changes, then the page goes back to the first; an empty value removes the filter', () => {
    const params = new URLSearchParams('status=NEW&page=4');
    expect(withFilter(params, 'status', 'CLOSED').toString()).toBe('status=CLOSED');
    expect(withFilter(params, 'status', '').toString()).toBe('');
  });

  it('when a column is sorted again, then its direction flips; a new column starts descending', () => {
    const params = new URLSearchParams();
    expect(sortDirectionOf(params, 'last_activity_at')).toBe('descending');
    const byCreated = withSort(params, 'created');
    expect(byCreated.get('sort')).toBe('-created');
    expect(withSort(byCreated, 'created').get('sort')).toBe('created');
    expect(sortDirectionOf(withSort(byCreated, 'created'), 'created')).toBe('ascending');
    expect(withPage(byCreated, 2).get('page')).toBe('2');
    expect(withPage(withPage(byCreated, 2), 1).has('page')).toBe(false);
  });

  it('when sorted by next deadline, then the soonest come first, and again the latest', () => {
    const bySoonest = withSort(new URLSearchParams('page=2'), 'next_due_at');
    expect(bySoonest.toString()).toBe('sort=next_due_at');
    expect(sortDirectionOf(bySoonest, 'next_due_at')).toBe('ascending');
    expect(withSort(bySoonest, 'next_due_at').get('sort')).toBe('-next_due_at');
    expect(withSort(withSort(bySoonest, 'next_due_at'), 'next_due_at').get('sort')).toBe('next_due_at');
  });

  it('when a page size is chosen, then it goes in the URL and the API query from page 1; the default leaves it out', () => {
    const fifty = withPageSize(new URLSearchParams('status=NEW&page=3'), '50');
    expect(fifty.toString()).toBe('status=NEW&page_size=50');
    expect(caseQueryOf(fifty)).toEqual({ status: 'NEW', page_size: '50' });
    expect(withPageSize(fifty, '20').toString()).toBe('status=NEW');
    expect(hasFilters(fifty)).toBe(true);
    expect(hasFilters(new URLSearchParams('page_size=50'))).toBe(false);
  });

  it('when the URL is saved as a view, then the view keeps its filters, sort and page size parsed, and opens the same list', () => {
    const params = new URLSearchParams('status=NEW,CLOSED&unassigned=true&report_number=7&page=3&page_size=20&utm=x');
    const filters = savedViewFiltersOf(params);
    expect(filters).toEqual({ status: ['NEW', 'CLOSED'], unassigned: true, report_number: 7, page_size: 20 });
    // The default page size needs no parameter; no page number: a view opens on its first page.
    expect(savedViewSearchOf(filters!)).toBe('status=NEW&status=CLOSED&unassigned=true&report_number=7');
    expect(savedViewFiltersOf(new URLSearchParams(savedViewSearchOf(filters!)))).toEqual({
      status: ['NEW', 'CLOSED'],
      unassigned: true,
      report_number: 7,
    });
    expect(savedViewFiltersOf(new URLSearchParams(''))).toEqual({});
    // What the list refuses cannot be saved either.
    expect(savedViewFiltersOf(new URLSearchParams('status=LOST'))).toBeNull();
    expect(savedViewFiltersOf(new URLSearchParams('sort=name'))).toBeNull();
  });
});
