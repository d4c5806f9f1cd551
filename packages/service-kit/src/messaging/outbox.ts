import { randomUUID } from 'node:crypto';
import { eventEnvelopeSchema, parseEventPayload, type EventActor, type EventEnvelope } from '@whistle/contracts';
import type { MigrationStream, Queryable } from '../database/database';
import { assertSchemaName } from '../database/migrate';
import { traceContextOf, type TraceContext } from '../tracing/trace-context';

/**
 * The tables behind the transactional outbox and the idempotent inbox, in the service's own schema: the first
 * stream the service lifecycle migrates. Ids are unique in the schema beside the service's own (`000_messaging…`).
 * `position` keeps the order events were written in (timestamps of one millisecond would tie).
 */
export function messagingMigrations(schema: string): MigrationStream {
  assertSchemaName(schema);
  const migrations = [
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
    {
      // The W3C trace context of the unit of work that wrote the event ({ traceparent, tracestate }), so its
      // publishing and consumption continue that trace; null when no trace was being recorded.
      id: '000_messaging_trace',
      sql: `ALTER TABLE ${schema}.outbox ADD COLUMN trace_context jsonb;`,
    },
  ];
  return { name: 'messaging', migrations };
}

export interface NewEvent {
  name: string;
  /** Catalogue version of the payload; 1 when omitted. */
  version?: number;
  company_id: string | null;
  payload: unknown;
  /** Who caused it; absent means the platform itself (SYSTEM). */
  actor?: EventActor;
  /**
   * The trace context of the request that caused it, when the event is written later, outside that request's
   * context (a batch of many requests' writes); the context active at writing by default.
   */
  trace_context?: TraceContext | null;
}

export interface Outbox {
  /**
   * Writes the event in the caller's transaction, so it is published if and only if the business
   * change commits. The payload is checked against the event catalogue here, at the source.
   */
  add(tx: Queryable, event: NewEvent): Promise<EventEnvelope>;
  /**
   * The same writes as a CTE body (`insert into <schema>.outbox … returning id`) for a statement of the caller's,
   * so one statement stores a change and its events: `$<param>` takes the returned `value`; `onlyIf`, an SQL
   * condition over the statement's CTEs and the event (its envelope as jsonb, `e.event`), writes each event only
   * if it holds (the change it announces was stored). Payloads are checked against the catalogue here, at the
   * source.
   */
  insertCte(
    events: readonly NewEvent[],
    param: number,
    onlyIf?: string,
  ): { sql: string; value: string; envelopes: EventEnvelope[] };
}

/** The envelope of a new event, its payload checked against the catalogue. */
function envelopeOf(event: NewEvent): EventEnvelope {
  const version = event.version ?? 1;
  return eventEnvelopeSchema.parse({
    id: randomUUID(),
    name: event.name,
    version,
    company_id: event.company_id,
    occurred_at: new Date().toISOString(),
    payload: parseEventPayload(event.name, version, event.payload),
    ...(event.actor ? { actor: event.actor } : {}),
  }) as EventEnvelope;
}

export function createOutbox(schema: string): Outbox {
  assertSchemaName(schema);
  const insertCte: Outbox['insertCte'] = (events, param, onlyIf = 'true') => {
    const envelopes = events.map((event) => envelopeOf(event));
    // Written in the order given (`position` orders publishing); envelope fields from the JSON parameter.
    const sql = `INSERT INTO ${schema}.outbox (id, name, version, company_id, occurred_at, payload, actor, trace_context)
      SELECT (e.event->>'id')::uuid, e.event->>'name', (e.event->>'version')::int, (e.event->>'company_id')::uuid,
             (e.event->>'occurred_at')::timestamptz, e.event->'payload',
             nullif(e.event->'actor', 'null'::jsonb), nullif(e.event->'trace_context', 'null'::jsonb)
        FROM jsonb_array_elements($${param}::jsonb) WITH ORDINALITY AS e(event, position)
       WHERE ${onlyIf}
       ORDER BY e.position
      RETURNING id`;
    const current = traceContextOf();
    const value = JSON.stringify(
      envelopes.map((envelope, index) => ({
        actor: null,
        ...envelope,
        trace_context: events[index]!.trace_context === undefined ? current : events[index]!.trace_context,
      })),
    );
    return { sql, value, envelopes };
  };
  return {
    insertCte,
    // The same INSERT as a statement of its own: one mapping of an envelope to the outbox's columns.
    async add(tx, event) {
      const { sql, value, envelopes } = insertCte([event], 1);
      await tx.query(sql, [value]);
      return envelopes[0]!;
    },
  };
}
