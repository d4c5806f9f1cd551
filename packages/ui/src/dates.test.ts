import {
  dateLocale,
  formatDate,
  formatDateTime,
  formatDay,
  formatDayRange,
  formatMonth,
  formatTime,
  isIsoDay,
  monthNames,
} from './dates';
import { STAFF_LANGUAGES } from './languages';

// 14:05 UTC on 1 May 2025; shown in UTC so the test reads the same in every time zone.
const MAY_DAY = '2025-05-01T14:05:09Z';
const utc = { timeZone: 'UTC' };

describe('dates', () => {
  it('when a date is shown in English, then it reads day, month name, year ("1 May 2025"), not the US order', () => {
    expect(dateLocale('en')).toBe('en-GB');
    expect(formatDate(MAY_DAY, 'en', utc)).toBe('1 May 2025');
    expect(formatDate(new Date(MAY_DAY), 'en', utc)).toBe('1 May 2025');
  });

  it('when a date is shown in French, then it reads "1 mai 2025"', () => {
    expect(formatDate(MAY_DAY, 'fr', utc)).toBe('1 mai 2025');
  });

  it('when the time matters, then it follows the date on a 24-hour clock, with seconds only when asked', () => {
    expect(formatDateTime(MAY_DAY, 'en', utc)).toBe('1 May 2025, 14:05');
    expect(formatDateTime(MAY_DAY, 'fr', utc)).toBe('1 mai 2025, 14:05');
    expect(formatDateTime(MAY_DAY, 'en', { ...utc, seconds: true })).toBe('1 May 2025, 14:05:09');
    expect(formatTime('2025-05-01T09:03:00Z', 'en', utc)).toBe('09:03');
  });

  it('when a timestamp is shown, then it is in the viewer’s time zone', () => {
    expect(formatDateTime('2025-05-01T23:30:00Z', 'en', { timeZone: 'Europe/Paris' })).toBe('2 May 2025, 01:30');
  });

  it('when no date shown has a numeric-only form, then no staff language prints slashes', () => {
    for (const language of STAFF_LANGUAGES)
      expect(formatDateTime(MAY_DAY, language, utc)).not.toMatch(/\d+[/.]\d+[/.]\d+/);
  });

  it('when a calendar day is shown, then it is the day written, whatever the time zone', () => {
    expect(formatDay('2025-05-01', 'en')).toBe('1 May 2025');
    expect(formatDay('2025-12-31', 'fr')).toBe('31 décembre 2025');
    expect(formatDay('not a day', 'en')).toBe('not a day');
  });

  it('when a period is shown, then it is one range in words', () => {
    expect(formatDayRange('2025-05-01', '2025-05-20', 'en')).toMatch(/^1\s?–\s?20 May 2025$/);
    expect(formatDayRange('2025-05-01', '2026-06-20', 'fr')).toMatch(/^1 mai 2025\s–\s20 juin 2026$/);
    expect(formatDayRange('2025-05-01', '2025-05-01', 'en')).toBe('1 May 2025');
  });

  it('when a month is shown, then it is its name and year', () => {
    expect(formatMonth('2025-05', 'en')).toBe('May 2025');
    expect(formatMonth('2025-09', 'fr')).toBe('septembre 2025');
    expect(formatMonth('2025-09', 'en', { short: true })).toMatch(/^Sept? 2025$/);
  });

  it('when a typed day is checked, then only real days written YYYY-MM-DD pass', () => {
    expect(isIsoDay('2025-05-01')).toBe(true);
    expect(isIsoDay('2024-02-29')).toBe(true);
    expect(isIsoDay('2025-02-29')).toBe(false);
    expect(isIsoDay('2025-02-30')).toBe(false);
    expect(isIsoDay('2025-13-01')).toBe(false);
    expect(isIsoDay('2025-5-1')).toBe(false);
    expect(isIsoDay('01/05/2025')).toBe(false);
    expect(isIsoDay('')).toBe(false);
  });

  it('when a month is chosen, then the twelve names come January first in the viewer’s language', () => {
    expect(monthNames('en')).toHaveLength(12);
    expect(monthNames('en')[0]).toBe('January');
    expect(monthNames('fr')[4]).toBe('mai');
  });
});
