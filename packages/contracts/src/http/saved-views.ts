import { z } from '../zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, incidentFilterSchema, incidentSortSchema } from './case-management';
import { incidentStatusSchema, reportChannelSchema } from './incident';

/*
 * Saved views (issue 23 item 2): a staff member's named filter sets for the case list, kept per person by the
 * incident service. A view holds list parameters only (the filters, the sort and the page size), never report
 * content: the same keys and values the list's query accepts, in their parsed form.
 */

/** Longest name of a saved view. */
export const SAVED_VIEW_NAME_MAX = 80;
/** Most saved views one person keeps. */
export const SAVED_VIEWS_PER_PERSON = 50;
/** Most values of one list filter (as the list's query takes them). */
const FILTER_VALUES_MAX = 50;

const values = <T extends z.ZodType>(item: T) =>
  z.array(item).max(FILTER_VALUES_MAX, `Ensure this list has no more than ${FILTER_VALUES_MAX} items`);

/** What a view keeps of the list: only the list's own parameters (unknown keys are refused); no page number. */
export const savedViewFiltersSchema = z.strictObject(
  {
    status: values(incidentStatusSchema).optional(),
    category: values(z.uuid({ error: 'Invalid category id' })).optional(),
    location: values(z.uuid({ error: 'Invalid location id' })).optional(),
    channel: values(reportChannelSchema).optional(),
    assigned_to_me: z.boolean({ error: 'Expected true or false' }).optional(),
    assignee: values(z.uuid({ error: 'Invalid user id' })).optional(),
    unassigned: z.boolean({ error: 'Expected true or false' }).optional(),
    overdue: z.boolean({ error: 'Expected true or false' }).optional(),
    report_number: z
      .number({ error: 'Invalid report number' })
      .int('Invalid report number')
      .positive('Invalid report number')
      .max(2_147_483_647, 'Invalid report number')
      .optional(),
    sort: incidentSortSchema.optional(),
    page_size: z
      .number({ error: 'Invalid page size' })
      .int('Invalid page size')
      .min(1, 'Invalid page size')
      .max(MAX_PAGE_SIZE, `Page size is at most ${MAX_PAGE_SIZE}`)
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown filter: ${issue.keys.join(', ')}` : undefined) },
);
export type SavedViewFilters = z.infer<typeof savedViewFiltersSchema>;

/**
 * The list's page query (strings, as in its URL) read as a view's filters: the list's filters, sort and page
 * size, each parsed as the list parses it; the page number is left out (a view opens on its first page).
 */
export const savedViewFiltersOfQuerySchema = z.object({
  // Cases by id (the audit log's look-up of numbers) are not a view of the list.
  ...incidentFilterSchema.omit({ incident: true }).shape,
  sort: incidentSortSchema.optional(),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});

/** The page query (repeated keys for lists, as the list's URL has them) that opens a view's filters. */
export function savedViewQueryOf(filters: SavedViewFilters): [string, string][] {
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (key === 'page_size' && value === DEFAULT_PAGE_SIZE) continue;
    for (const item of Array.isArray(value) ? value : [value]) entries.push([key, String(item)]);
  }
  return entries;
}

/** POST /api/incident/saved-view/: the current filters under a name of the person's choosing. */
export const savedViewCreateRequestSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'This field is required')
    .max(SAVED_VIEW_NAME_MAX, `Ensure this field has no more than ${SAVED_VIEW_NAME_MAX} characters`),
  filters: savedViewFiltersSchema,
});
export type SavedViewCreateRequest = z.input<typeof savedViewCreateRequestSchema>;

/** A saved view as its owner reads it (GET lists them by name; POST answers the new one). */
export const savedViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  filters: savedViewFiltersSchema,
  created: z.iso.datetime({ offset: true }),
});
export type SavedView = z.infer<typeof savedViewSchema>;
