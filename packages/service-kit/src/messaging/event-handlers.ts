import {
  eventCatalogue,
  parseEventPayload,
  type EventEnvelope,
  type EventName,
  type EventPayload,
} from '@whistle/contracts';
import { UnprocessableEventError } from './unprocessable-event-error';

type Catalogue = typeof eventCatalogue;

/** The versions the catalogue has of event `N`. */
export type EventVersion<N extends EventName> = keyof Catalogue[N] & number;

/** One version of one event of the catalogue, `name@version`: `user.created@1`. */
export type EventKey = { [N in EventName]: `${N}@${EventVersion<N>}` }[EventName];

/** The envelope of an event of that name and version, its payload typed by the catalogue's schema. */
export type VersionedEvent<K extends EventKey> = K extends `${infer N extends EventName}@${infer V extends number}`
  ? Omit<EventEnvelope, 'name' | 'version' | 'payload'> & {
      name: N;
      version: V;
      payload: EventPayload<N, V & keyof Catalogue[N]>;
    }
  : never;

/** A versioned event of a company (`company_id` set): most events are. */
export type CompanyEvent<K extends EventKey> = VersionedEvent<K> & { company_id: string };

export type EventHandler<K extends EventKey, Tx> = (tx: Tx, event: VersionedEvent<K>) => Promise<void>;

/** Handlers by `name@version`: the key types the event each one receives. */
export type EventHandlerMap<Tx> = { [K in EventKey]?: EventHandler<K, Tx> };

/** Exactly the handlers of `K` (a module that handles a few events for others to spread into their map). */
export type EventHandlersOf<K extends EventKey, Tx> = { [P in K]: EventHandler<P, Tx> };

/** A consumer's handlers, as a subscription takes them (see `ServiceSubscription`, `subscribeIdempotently`). */
export interface EventHandlers<Tx> {
  /** The names handled, in any version: the routing keys to subscribe to. */
  readonly events: readonly EventName[];
  /** Why this consumer cannot handle the event (no handler of its name and version), or undefined when it can. */
  refusal(event: Pick<EventEnvelope, 'name' | 'version'>): string | undefined;
  /**
   * Runs the handler of the event's name and version, with its payload checked against that version's schema.
   * An event of a version no handler is written for is unprocessable (dead-lettered with the reason): a handler
   * of v1 never reads a v2 payload as if it were v1.
   */
  handle(tx: Tx, event: EventEnvelope): Promise<void>;
}

/**
 * The event with its payload parsed by the catalogue's schema of its name and version; one that does not fit is
 * unprocessable, since retrying cannot fix it.
 */
export function checkedAgainstCatalogue(event: EventEnvelope): EventEnvelope {
  try {
    return { ...event, payload: parseEventPayload(event.name, event.version, event.payload) };
  } catch (error) {
    throw new UnprocessableEventError(
      `Event ${event.name} v${event.version} does not match the catalogue: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

const keyOf = (event: Pick<EventEnvelope, 'name' | 'version'>) => `${event.name}@${event.version}`;

export function eventHandlers<Tx>(handlers: EventHandlerMap<Tx>): EventHandlers<Tx> {
  const byKey = new Map<string, (tx: Tx, event: EventEnvelope) => Promise<void>>();
  const versions = new Map<string, number[]>();
  for (const [key, handler] of Object.entries(handlers)) {
    if (!handler) continue;
    const at = key.lastIndexOf('@');
    const name = key.slice(0, at);
    // The key types the handler; this is where the event is checked to be of that key (refusal, then the schema).
    byKey.set(key, handler as unknown as (tx: Tx, event: EventEnvelope) => Promise<void>);
    versions.set(name, [...(versions.get(name) ?? []), Number(key.slice(at + 1))]);
  }
  const refusal = (event: Pick<EventEnvelope, 'name' | 'version'>) => {
    if (byKey.has(keyOf(event))) return undefined;
    const handled = versions.get(event.name);
    return handled
      ? `No handler for ${event.name} v${event.version}: this consumer handles v${handled.join(', v')} only`
      : `No handler for ${event.name}`;
  };
  return {
    events: [...versions.keys()] as EventName[],
    refusal,
    async handle(tx, event) {
      const handler = byKey.get(keyOf(event));
      if (!handler) throw new UnprocessableEventError(refusal(event)!);
      await handler(tx, checkedAgainstCatalogue(event));
    },
  };
}

/** A handler of an event that belongs to a company: one without a company is unprocessable (dead-lettered). */
export function ofCompany<K extends EventKey, Tx>(
  handle: (tx: Tx, event: CompanyEvent<K>) => Promise<void>,
): EventHandler<K, Tx> {
  return (tx, event) => {
    const companyId = event.company_id;
    if (!companyId) throw new UnprocessableEventError(`${event.name} without a company`);
    return handle(tx, { ...event, company_id: companyId });
  };
}
