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
  { fields, categories, location }: ReportDetailsSource,
  language: string,
  yesNo: (value: string) => string,
): DetailRow[] {
  const valueOf = (name: (typeof REPORT_DETAIL_ORDER)[number]): string => {
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
