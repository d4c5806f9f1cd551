import { randomUUID } from 'node:crypto';
import { eventEnvelopeSchema, parseEventPayload, type EventActor, type EventEnvelope } from '@whistle/contracts';
import type { Migration, Queryable } from '../database/database';
import { assertSchemaName } from '../database/migrate';

/**
 * The tables behind the transactional outbox and the idempotent inbox, in the service's own schema.
 * Its id sorts before a service's own migrations (`001_...`): put it first in the service's list.
 * `position` keeps the order events were written in (timestamps of one millisecond would tie).
 */
export function messagingMigrations(schema: string): Migration[] {
  assertSchemaName(schema);
  return [
    {
      id: '000_messaging',
      sql: `
        CREATE TABLE ${schema}.outbox (
          id uuid PRIMARY KEY,
          position bigint GENERATED ALWAYS AS IDENTITY,
          name text NOT NULL,
          version integer NOT NULL,
          company_id uuid,
          occurred_at timestamptz NOT NULL,
          payload jsonb NOT NULL,
          published_at timestamptz
        );
        CREATE INDEX outbox_unpublished_idx ON ${schema}.outbox (position) WHERE published_at IS NULL;
        CREATE TABLE ${schema}.inbox (
          consumer text NOT NULL,
          event_id uuid NOT NULL,
          processed_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, event_id)
        );
      `,
    },
    {
      // Who caused the event, for the audit trail: a staff user id, DISCLOSER or SYSTEM (never a name or address).
      id: '000_messaging_actor',
      sql: `ALTER TABLE ${schema}.outbox ADD COLUMN actor jsonb;`,
    },
    {
      // The relay claims a batch (a lease) and commits before it talks to the broker.
      id: '000_messaging_claim',
      sql: `ALTER TABLE ${schema}.outbox ADD COLUMN claimed_until timestamptz;`,
    },
  ];
}

export interface NewEvent {
  name: string;
  /** Catalogue version of the payload; 1 when omitted. */
  version?: number;
  company_id: string | null;
  payload: unknown;
  /** Who caused it; absent means the platform itself (SYSTEM). */
  actor?: EventActor;
}

export interface Outbox {
  /**
   * Writes the event in the caller's transaction, so it is published if and only if the business
   * change commits. The payload is checked against the event catalogue here, at the source.
   */
  add(tx: Queryable, event: NewEvent): Promise<EventEnvelope>;
}

export function createOutbox(schema: string): Outbox {
  assertSchemaName(schema);
  return {
    async add(tx, event) {
      const version = event.version ?? 1;
      const envelope = eventEnvelopeSchema.parse({
        id: randomUUID(),
        name: event.name,
        version,
        company_id: event.company_id,
        occurred_at: new Date().toISOString(),
        payload: parseEventPayload(event.name, version, event.payload),
        ...(event.actor ? { actor: event.actor } : {}),
      }) as EventEnvelope;
      await tx.query(
        `INSERT INTO ${schema}.outbox (id, name, version, company_id, occurred_at, payload, actor) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
        [
          envelope.id,
          envelope.name,
          envelope.version,
          envelope.company_id,
          envelope.occurred_at,
          JSON.stringify(envelope.payload),
          envelope.actor ? JSON.stringify(envelope.actor) : null,
        ],
      );
      return envelope;
    },
  };
}
