import type { CaseMailEvent } from '../case-mails';

/** One language's case mails: a subject and a line per event (`{n}` the report number, `{due}` a date), the link's lead. */
export type CaseMailTexts = Record<CaseMailEvent, { subject: string; line: string }> & { open: string };
