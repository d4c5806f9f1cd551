import type { PlatformConfig } from '../config/platform-config';
import type { Logger } from '../logging/logger';

/** What every adapter behind a port is: it says which one it is, and it can be closed. */
export interface Adapter {
  readonly kind: string;
  close(): Promise<void>;
}

/**
 * A port a service may declare: how to open the adapter the configuration selects. Each package
 * brings its own (Database and EventBus here, ObjectStore in @whistle/object-store, Mailer in
 * @whistle/mailer), so a process opens only the ports its services declare, and a service's
 * package depends only on the adapters it uses.
 */
export interface Port<A extends Adapter = Adapter> {
  /** Its name in the start-up log and, with `ready`, in the /readyz checks: `database`, `objects`... */
  readonly name: string;
  open(config: PlatformConfig, logger: Logger): A | Promise<A>;
  /** Resolves while the adapter can serve: a /readyz check. Without it, an open adapter counts as ready. */
  ready?(adapter: A): Promise<unknown>;
}

/** The ports of a service, under the keys its code reads them by: `{ db: databasePort, bus: eventBusPort }`. */
export type PortSet = Record<string, Port>;

/** The adapter a port opens. */
export type AdapterOf<P> = P extends Port<infer A> ? A : never;

/** Adapters opened for a set of ports, under their keys, with the logger (several services' share, say). */
export interface OpenedAdapters {
  logger: Logger;
  [key: string]: unknown;
}

/** What a service receives: the adapter of each port it declared, under the same key, and the logger. */
export type ServiceDependencies<P extends PortSet> = { logger: Logger } & { [K in keyof P]: AdapterOf<P[K]> };
