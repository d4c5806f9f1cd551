/** A length of time in calendar units, as the domain gives it (domain/cases/legal-clocks.ts). */
export interface CalendarLength {
  readonly months: number;
  readonly days: number;
}

/**
 * The text of a `$n::interval` parameter: ISO 8601 (`P3M0D`), which PostgreSQL reads as the same months and
 * days an `interval '3 months'` literal holds, so adding it to a time does the same calendar arithmetic.
 */
export const intervalParam = ({ months, days }: CalendarLength): string => `P${months}M${days}D`;
