import { decryptContent, type ContentBinding, type IncidentHandle } from '@whistle/crypto';
import { formatDay } from '../dates';

export interface DetailRow {
  /** The field: a key under `review.fields` (discloser) or `report.fields` (staff) in the locale files. */
  name: string;
  value: string;
}

/** What a report's details are made of: its decrypted fields, and what the server keeps in clear. */
export interface ReportDetailsSource {
  /** Decrypted report fields by name. */
  fields: Record<string, string>;
  categories: readonly { name: string }[];
  location: { name: string };
  /** Fields that did not open as themselves (`openReportFields`), shown as `text`: "This text cannot be verified". */
  unverifiable?: { names: ReadonlySet<string>; text: string };
}

/**
 * A text of the case opened as what it is where it is shown (`binding`); '' when it does not open — moved from
 * elsewhere, altered, or not something the browser wrote — so the page shows that it cannot be verified, never
 * the text, and never fails for it.
 */
export const openText = (handle: IncidentHandle, ciphertext: string, binding: ContentBinding): Promise<string> =>
  decryptContent(handle, ciphertext, binding).catch(() => '');

/** A report's fields, each opened under its own name; those that do not open are named in `unverifiable`. */
export async function openReportFields(
  handle: IncidentHandle,
  fields: readonly { name: string; value: string }[],
): Promise<{ fields: Record<string, string>; unverifiable: Set<string> }> {
  const opened = await Promise.all(
    fields.map(async ({ name, value }) => {
      try {
        return { name, value: await decryptContent(handle, value, { kind: 'field', name }), ok: true };
      } catch {
        return { name, value: '', ok: false };
      }
    }),
  );
  return {
    fields: Object.fromEntries(opened.map(({ name, value }) => [name, value])),
    unverifiable: new Set(opened.filter(({ ok }) => !ok).map(({ name }) => name)),
  };
}

/** Spec §3: the review screen's order; category shown as 'Incident', dates as one range. */
export const REPORT_DETAIL_ORDER = [
  'full_name',
  'email',
  'phone_number_code',
  'phone_number',
  'can_contact',
  'category_uuid',
  'description',
  'location',
  'location_detail',
  'date',
  'people_involved',
  'outcome',
] as const;

/**
 * A report's details as the review screen shows them (spec §3), for the discloser and for staff alike:
 * in the spec's order, empty values hidden, date and end date as one 'start - end' range.
 */
export function reportDetails(
  { fields, categories, location, unverifiable }: ReportDetailsSource,
  language: string,
  yesNo: (value: string) => string,
): DetailRow[] {
  const refused = (...names: string[]) => names.some((name) => unverifiable?.names.has(name));
  const valueOf = (name: (typeof REPORT_DETAIL_ORDER)[number]): string => {
    if (unverifiable && (name === 'date' ? refused('date', 'end_date') : refused(name))) return unverifiable.text;
    switch (name) {
      case 'category_uuid':
        return categories.map((category) => category.name).join(', ');
      case 'location':
        return location.name;
      case 'can_contact':
        return fields.can_contact ? yesNo(fields.can_contact) : '';
      case 'date': {
        const [start, end] = [fields.date, fields.end_date].map((value) => (value ? formatDay(value, language) : ''));
        return start && end ? `${start} - ${end}` : start || end;
      }
      default:
        return fields[name] ?? '';
    }
  };
  // Spec §3: empty values are hidden.
  return REPORT_DETAIL_ORDER.map((name) => ({ name, value: valueOf(name).trim() })).filter((row) => row.value !== '');
}
