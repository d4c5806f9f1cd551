/** A UTC timestamp in the viewer's locale and time zone, date and time. */
export const formatDateTime = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));

/** A UTC timestamp as a date in the viewer's locale and time zone. */
export const formatDate = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'short' }).format(new Date(iso));
