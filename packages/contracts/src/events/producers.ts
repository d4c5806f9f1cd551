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
    'incident.deadline',
    'incident.retention_due',
    'incident.deleted',
    'company.retention_changed',
  ],
  file: ['incident.file.created', 'incident.file.downloaded'],
  notification: [],
  audit: [],
} as const satisfies Record<string, readonly EventName[]>;

export type ProducingService = keyof typeof eventProducers;
