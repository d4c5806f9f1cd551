/*
 * Every date a page shows, in words and in the viewer's language: "1 May 2025" / "1 mai 2025", with the time
 * where it matters ("1 May 2025, 14:05"). Never a numeric-only date: 01/05/2025 reads as 1 May in France and
 * 5 January in the US. English uses en-GB, whose order is day month year like French.
 * Timestamps show in the viewer's time zone; calendar days (YYYY-MM-DD, what date fields keep) as typed.
 */

/** A timestamp (ISO 8601 text, as the API sends) or a Date. */
export type DateValue = string | Date;

const LOCALES: Record<string, string> = { en: 'en-GB', fr: 'fr-FR' };

/** The Intl locale for a page language: 'en' reads day month year (en-GB), not the US month first. */
export const dateLocale = (language: string): string => LOCALES[language.split('-')[0]!] ?? language;

const DAY_MONTH_YEAR = { day: 'numeric', month: 'long', year: 'numeric' } as const;

// Building a formatter costs more than using one: a long list formats thousands of dates.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(dateLocale(language), options);
    formatters.set(key, found);
  }
  return found;
}

const asDate = (value: DateValue) => (typeof value === 'string' ? new Date(value) : value);

export interface DateOptions {
  /** An IANA zone; the viewer's by default. */
  timeZone?: string;
}

/** "1 May 2025" / "1 mai 2025". */
export const formatDate = (value: DateValue, language: string, { timeZone }: DateOptions = {}): string =>
  formatter(language, { ...DAY_MONTH_YEAR, timeZone }).format(asDate(value));

export interface DateTimeOptions extends DateOptions {
  /** Seconds too, where the order of close events matters (the audit log). */
  seconds?: boolean;
}

/** "14:05" (24-hour clock in both languages). */
export const formatTime = (value: DateValue, language: string, { timeZone, seconds }: DateTimeOptions = {}): string =>
  formatter(language, {
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZone,
  }).format(asDate(value));

/**
 * "1 May 2025, 14:05": the date, then the time. Joined here rather than by Intl, whose joiner changes with the
 * browser's ICU version ("," or "at").
 */
export const formatDateTime = (value: DateValue, language: string, options: DateTimeOptions = {}): string =>
  `${formatDate(value, language, options)}, ${formatTime(value, language, options)}`;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar day written YYYY-MM-DD (2025-02-30 is not). */
export function isIsoDay(value: string): boolean {
  const match = ISO_DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar day (YYYY-MM-DD) in words, the day as written whatever the viewer's time zone; else as given. */
export const formatDay = (day: string, language: string): string =>
  isIsoDay(day) ? formatDate(`${day}T00:00:00Z`, language, { timeZone: 'UTC' }) : day;

/** Two calendar days as one range: "1–20 May 2025", "1 May 2025 – 20 June 2026". */
export function formatDayRange(from: string, to: string, language: string): string {
  if (!isIsoDay(from) || !isIsoDay(to) || to < from) return `${formatDay(from, language)} – ${formatDay(to, language)}`;
  return formatter(language, { ...DAY_MONTH_YEAR, timeZone: 'UTC' }).formatRange(
    new Date(`${from}T00:00:00Z`),
    new Date(`${to}T00:00:00Z`),
  );
}

/** A calendar month (YYYY-MM) as "May 2025"; `short` for "Sept 2025" where room is short (chart axes). */
export const formatMonth = (month: string, language: string, { short = false }: { short?: boolean } = {}): string =>
  formatter(language, { month: short ? 'short' : 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );

/** The twelve month names, January first, in the viewer's language (a date field's month choice). */
export const monthNames = (language: string): string[] =>
  Array.from({ length: 12 }, (_, index) =>
    formatter(language, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, index, 1))),
  );
