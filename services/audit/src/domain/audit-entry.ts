import type { EventEnvelope } from '@whistle/contracts';

/** What an event means in the trail: its action, whether it succeeded, its subject and its case. */
export interface AuditEntryFacts {
  action: string;
  success: boolean;
  tableIdentifier: string;
  objectId: string | null;
  /** The case the entry belongs to (the incident itself, or its message, note, file or exclusion). */
  incidentId: string | null;
}

const stringOf = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The audited object of an event: `incident.message.created` is about an incident message, so its
 * table identifier is `incident_message` and its object the `<table>_id` of the payload.
 */
export function auditSubject(event: EventEnvelope): { tableIdentifier: string; objectId: string | null } {
  const words = event.name.split('.');
  const table = words.slice(0, -1).join('_');
  const tableIdentifier = table === 'user' ? 'user_profile' : table;
  const candidates = [`${table}_id`, `${words[0]}_id`, 'id'];
  const objectId = candidates.map((key) => stringOf(event.payload[key])).find((value) => value !== null) ?? null;
  return { tableIdentifier, objectId };
}

/** Events whose trail name says more than their event name (the others: dots become dashes). */
const actions: Record<string, (event: EventEnvelope) => string> = {
  'user.created': (event) =>
    event.actor?.type === 'STAFF' && event.actor.user_id !== event.payload.user_id ? 'user-invited' : 'user-created',
  'user.deleted': () => 'user-removed',
  'user.signed_in': () => 'login-succeeded',
  'user.sign_in_failed': () => 'login-failed',
  'user.mfa_enabled': () => 'mfa-enabled',
  'user.sessions_revoked': () => 'sessions-revoked',
  'token.revoked': () => 'logout',
  'incident.created': () => 'incident-reported',
  'incident.viewed': () => 'incident-opened',
  'incident.updated': (event) => {
    const changes = Array.isArray(event.payload.changes) ? event.payload.changes : [];
    if (changes.includes('status')) return 'incident-status-changed';
    if (changes.includes('feedback')) return 'incident-feedback-given';
    return 'incident-categories-changed';
  },
  'incident.assigned': () => 'incident-assigned',
  'incident.exclusion.changed': () => 'incident-exclusion-changed',
  'incident.note.created': () => 'incident-note-added',
  'incident.message.created': () => 'incident-message-sent',
  'incident.exported': () => 'incidents-exported',
  'incident.printed': () => 'incident-printed',
  'incident.recorded': () => 'incident-recorded',
  'incident.record_approved': () => 'incident-record-approved',
  'incident.linked': () => 'incident-linked',
  'incident.unlinked': () => 'incident-unlinked',
  'incident.searched': () => 'incidents-searched',
  'incident.file.created': () => 'file-uploaded',
  'incident.file.downloaded': () => 'file-downloaded',
  'company.retention_changed': () => 'retention-changed',
  'user.keys_created': () => 'keys-created',
  'user.unlock_method_added': () => 'unlock-method-added',
  'user.unlock_method_removed': () => 'unlock-method-removed',
  'user.password_kdf_upgraded': () => 'password-kdf-upgraded',
  'company.key_granted': () => 'report-access-granted',
  'company.key_revoked': () => 'report-access-revoked',
  'company.key_access_requested': () => 'report-access-requested',
  'company.key_access_declined': () => 'report-access-declined',
  'company.key_endorsed': () => 'key-endorsed',
  'company.keys_migrated': () => 'company-key-moved',
  'company.recovery_kit_rotated': () => 'recovery-kit-renewed',
  'company.key_rotation_started': () => 'company-key-rotation-started',
  'company.key_rotation_completed': () => 'company-key-rotated',
  'incident.company_key_rewrapped': () => 'cases-rewrapped',
  'incident.deadline': (event) => `incident-deadline-${String(event.payload.state).replace(/_/g, '-')}`,
};

/** Events that record a refusal rather than something done. */
const failures = new Set(['user.sign_in_failed']);

export function auditEntryFacts(event: EventEnvelope): AuditEntryFacts {
  const subject = auditSubject(event);
  const incidentId = event.name.startsWith('incident.') ? (stringOf(event.payload.incident_id) ?? null) : null;
  return {
    action: actions[event.name]?.(event) ?? event.name.replace(/[._]/g, '-'),
    success: !failures.has(event.name),
    ...subject,
    incidentId,
  };
}
