import type { AuditAction, AuditLogEntry, IncidentStaffView } from '@whistle/contracts';
import type { OpenedCase } from './use-case';

/** What the timeline's filter chooses among. */
export const timelineKinds = ['messages', 'notes', 'status', 'assignment', 'files', 'access'] as const;
export type TimelineKind = (typeof timelineKinds)[number];

/** The kinds only the audit trail holds, shown to those who may read it (admins). */
export const auditOnlyKinds: readonly TimelineKind[] = ['assignment', 'access'];

type Message = OpenedCase['messages'][number];
type Note = OpenedCase['notes'][number];
type StatusChange = IncidentStaffView['status_history'][number];

/** One entry of the case's timeline: what happened, when, and which filter kinds show it. */
export type TimelineEntry = { key: string; at: string; kinds: readonly TimelineKind[] } & (
  | { type: 'received'; view: IncidentStaffView }
  | { type: 'message'; message: Message }
  | { type: 'note'; note: Note }
  | { type: 'status'; change: StatusChange }
  | { type: 'audit'; entry: AuditLogEntry }
);

/**
 * Audit actions the case's own records already show (the report, its messages with their feedback mark and
 * files, notes, status moves): their trail entries would repeat them.
 */
const shownByTheCase = new Set<string>([
  'incident-reported',
  'incident-message-sent',
  'incident-feedback-given',
  'incident-note-added',
  'incident-status-changed',
  'file-uploaded',
] satisfies AuditAction[]);

const auditKinds: Partial<Record<AuditAction, TimelineKind>> = {
  'incident-assigned': 'assignment',
  'incident-exclusion-changed': 'assignment',
  'incident-categories-changed': 'status',
  'incident-deadline-due-soon': 'status',
  'incident-deadline-overdue': 'status',
  'incident-retention-due': 'status',
  'file-downloaded': 'files',
  'incident-opened': 'access',
  'incidents-exported': 'access',
  'incident-printed': 'access',
  'incident-recorded': 'status',
  'incident-record-approved': 'status',
  'incident-linked': 'status',
  'incident-unlinked': 'status',
  'incidents-searched': 'access',
};

/** The filter kind of a trail entry; null when the case's own records show it. Unknown actions are access. */
export function auditKindOf(action: string): TimelineKind | null {
  if (shownByTheCase.has(action)) return null;
  return auditKinds[action as AuditAction] ?? 'access';
}

/**
 * Everything that happened to the case, oldest first: the report's arrival, its messages (with their files),
 * private notes, status moves and, for those who may read it, the audit trail's entries that none of these
 * already show (assignments, exclusions, openings, downloads, exports, deadlines).
 */
export function caseTimeline(opened: OpenedCase, trail: readonly AuditLogEntry[] = []): TimelineEntry[] {
  const { view } = opened;
  const withFiles = new Set(opened.files.flatMap((file) => (file.messageUuid ? [file.messageUuid] : [])));
  const entries: TimelineEntry[] = [
    { key: 'received', at: view.created, kinds: ['status'], type: 'received', view },
    ...opened.messages.map((message): TimelineEntry => ({
      key: `message-${message.uuid}`,
      at: message.created,
      kinds: withFiles.has(message.uuid) ? ['messages', 'files'] : ['messages'],
      type: 'message',
      message,
    })),
    ...opened.notes.map((note): TimelineEntry => ({
      key: `note-${note.uuid}`,
      at: note.created,
      kinds: ['notes'],
      type: 'note',
      note,
    })),
    ...view.status_history.map((change, index): TimelineEntry => ({
      key: `status-${index}`,
      at: change.changed_at,
      kinds: ['status'],
      type: 'status',
      change,
    })),
    ...trail.flatMap((entry): TimelineEntry[] => {
      const kind = auditKindOf(entry.action);
      return kind ? [{ key: `audit-${entry.uuid}`, at: entry.occurred_at, kinds: [kind], type: 'audit', entry }] : [];
    }),
  ];
  // Stable: entries of one instant keep the order above (the report before anything about it).
  return entries
    .map((entry, index) => ({ entry, index, time: Date.parse(entry.at) }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map(({ entry }) => entry);
}

/** The entries any of the chosen kinds shows. */
export const filtered = (entries: readonly TimelineEntry[], chosen: ReadonlySet<TimelineKind>) =>
  entries.filter((entry) => entry.kinds.some((kind) => chosen.has(kind)));
