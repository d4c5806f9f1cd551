import type { DiscloserSession } from './discloser-session';
import { formatInputDate } from '../report/format';

export interface DetailRow {
  /** Key under `review.fields` in the locale files. */
  name: string;
  value: string;
}

/** Spec §3: the review screen's order; category shown as 'Incident', dates as one range. */
const ORDER = [
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

export function reviewDetails(
  session: Pick<DiscloserSession, 'fields' | 'incident'>,
  locale: string,
  yesNo: (value: string) => string,
): DetailRow[] {
  const { fields, incident } = session;
  const valueOf = (name: (typeof ORDER)[number]): string => {
    switch (name) {
      case 'category_uuid':
        return incident.categories.map((category) => category.name).join(', ');
      case 'location':
        return incident.location.name;
      case 'can_contact':
        return fields.can_contact ? yesNo(fields.can_contact) : '';
      case 'date': {
        const [start, end] = [fields.date, fields.end_date].map((value) =>
          value ? formatInputDate(value, locale) : '',
        );
        return start && end ? `${start} - ${end}` : start || end;
      }
      default:
        return fields[name] ?? '';
    }
  };
  // Spec §3: empty values are hidden.
  return ORDER.map((name) => ({ name, value: valueOf(name).trim() })).filter((row) => row.value !== '');
}
