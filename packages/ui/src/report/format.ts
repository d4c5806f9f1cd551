const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** Spec §3: human units from 1000 upward (B, kB, MB ...), in the page's number format. */
export function formatFileSize(bytes: number, locale: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${UNITS[unit]}`;
}

/** A `date` input's value (YYYY-MM-DD) as a locale short date, on the calendar day typed. */
export function formatInputDate(value: string, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short' }).format(date);
}

/** Spec §2: messages show the date, then the time. */
export const formatMessageTime = (iso: string, locale: string) => {
  const date = new Date(iso);
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'short' }).format(date)} ${new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date)}`;
};
