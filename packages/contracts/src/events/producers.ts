import type { EventName } from './catalogue';

/**
 * Which service publishes each event of the catalogue: its broker user may publish those routing keys and no other
 * (RabbitMQ topic permissions, docs/operations.md "Broker users"), and consumers take an event from the shared
 * exchange only under the routing key of its name. A new event is added here with its producer, or the deployment's
 * broker refuses it (and `producers.test.ts` fails first).
 */
export const eventProducers = {
  auth: [
    'company.created',
    'company.updated',
    'user.created',
    'user.updated',
    'user.deleted',
    'user.sessions_revoked',
    'user.signed_in',
    'user.sign_in_failed',
    'user.mfa_enabled',
    'user.password_kdf_upgraded',
    'user.keys_created',
    'user.unlock_method_added',
    'user.unlock_method_removed',
    'company.key_granted',
    'company.key_revoked',
    'company.key_access_requested',
    'company.key_access_declined',
    'company.key_endorsed',
    'company.keys_migrated',
    'company.recovery_kit_rotated',
    'company.key_rotation_started',
    'company.key_rotation_completed',
    'token.revoked',
    'category.created',
    'category.updated',
    'category.deleted',
    'location.created',
    'location.updated',
    'location.deleted',
  ],
  incident: [
    'incident.created',
    'incident.updated',
    'incident.assigned',
    'incident.exclusion.changed',
    'incident.message.created',
    'incident.note.created',
    'incident.viewed',
    'incident.exported',
    'incident.printed',
    'incident.recorded',
    'incident.record_approved',
    'incident.linked',
    'incident.unlinked',
    'incident.searched',
    'incident.deadline',
    'incident.retention_due',
    'incident.deleted',
    'company.retention_changed',
    'incident.company_key_rewrapped',
  ],
  file: ['incident.file.created', 'incident.file.downloaded'],
  notification: [],
  audit: [],
} as const satisfies Record<string, readonly EventName[]>;

export type ProducingService = keyof typeof eventProducers;
