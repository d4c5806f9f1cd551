/*
 * The reporting period as the page URL keeps it (`?from=YYYY-MM-DD&to=YYYY-MM-DD`, both days included), and
 * the presets offered. "Today" is the viewer's calendar day; the server counts in UTC days
 * (docs/case-management.md, Reporting).
 */
import { isIsoDay } from '@whistle/ui';

export interface Period {
  from: string;
  to: string;
}

export const PRESETS = ['last12Months', 'last3Months', 'thisYear', 'lastYear'] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Preset = 'last12Months';

/** The server's limit (MAX_REPORTING_YEARS in @whistle/contracts, kept equal by the page test). */
export const MAX_YEARS = 5;

const two = (value: number) => String(value).padStart(2, '0');
const dayOf = (year: number, monthIndex: number, day: number) => {
  // Date normalises months out of range (month -3 is October of the year before).
  const date = new Date(year, monthIndex, day);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
};

/** The viewer's calendar date as YYYY-MM-DD. */
export const isoDay = (date: Date) => dayOf(date.getFullYear(), date.getMonth(), date.getDate());

/** A preset's period as of `today`. Month presets start on the first of the month, so no month is cut. */
export function presetPeriod(preset: Preset, today: Date): Period {
  const year = today.getFullYear();
  const month = today.getMonth();
  switch (preset) {
    case 'last12Months':
      return { from: dayOf(year, month - 11, 1), to: isoDay(today) };
    case 'last3Months':
      return { from: dayOf(year, month - 2, 1), to: isoDay(today) };
    case 'thisYear':
      return { from: dayOf(year, 0, 1), to: isoDay(today) };
    case 'lastYear':
      return { from: dayOf(year - 1, 0, 1), to: dayOf(year - 1, 11, 31) };
  }
}

/** The preset `period` is, if any (for the preset chooser). */
export const presetOf = (period: Period, today: Date): Preset | undefined =>
  PRESETS.find((preset) => {
    const candidate = presetPeriod(preset, today);
    return candidate.from === period.from && candidate.to === period.to;
  });

export type PeriodProblem = 'invalid' | 'reversed' | 'tooLong';

/** What is wrong with a period the viewer typed, before anything is asked of the server. */
export function periodProblem({ from, to }: Period): PeriodProblem | undefined {
  // A real day each (2025-02-30 is none, though Date.parse rolls it over to 2 March).
  if (!isIsoDay(from) || !isIsoDay(to)) return 'invalid';
  if (to < from) return 'reversed';
  const limit = new Date(`${from}T00:00:00Z`);
  limit.setUTCFullYear(limit.getUTCFullYear() + MAX_YEARS);
  if (to >= limit.toISOString().slice(0, 10)) return 'tooLong';
  return undefined;
}

/** The period the page URL says, or the default preset's when it says none. */
export function periodOf(params: URLSearchParams, today: Date): Period {
  const from = params.get('from');
  const to = params.get('to');
  return from && to ? { from, to } : presetPeriod(DEFAULT_PRESET, today);
}

export function withPeriod(params: URLSearchParams, period: Period): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('from', period.from);
  next.set('to', period.to);
  return next;
}
