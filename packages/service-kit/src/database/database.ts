/** A connection (or a transaction) that runs parameterised SQL. Domain code sees only this. */
export interface Queryable {
  query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<R>>;
}

export interface QueryOptions {
  /**
   * Prepares the statement under this name once per connection and reuses its plan (PostgreSQL; PGlite's API
   * has no named statements and ignores it). For hot queries of fixed text: one name, one SQL text, always.
   */
  name?: string;
}

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/**
 * The Database port. Two adapters: PGlite (embedded, one per process, a single connection whose
 * transactions queue) and PostgreSQL through a `pg` Pool. SQL is always schema-qualified
 * (`auth.company`), so several services can share one database, each owning its schema.
 */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Receives what is sent with `NOTIFY channel` (or `pg_notify`) by any connection to this database, this
   * process's and other replicas', once the sending transaction commits. `channel`: a lowercase identifier.
   */
  listen(channel: string, listener: NotificationListener): Promise<NotificationSubscription>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface NotificationListener {
  /** A committed notification's payload. */
  notified(payload: string): void;
  /** Listening (again): called when listening starts and after every reconnection. */
  listening(): void;
  /** The listening connection was lost: notifications are missed until `listening` is called again. */
  interrupted(): void;
}

export interface NotificationSubscription {
  close(): Promise<void>;
}

/** LISTEN takes an identifier, not a parameter: only plain lowercase names are accepted. */
export function assertChannelName(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a notification channel name: ${channel}`);
}

/**
 * One forward-only migration of a service schema. `id` orders it within its stream (e.g. `001_company`) and is unique
 * in the schema. Once applied its text never changes: migrate records its checksum and refuses an edited one.
 */
export interface Migration {
  id: string;
  sql: string;
}

/**
 * The current definition of a function, trigger or view: `create or replace …`, applied after every migration and
 * again whenever its text changes. `name` (e.g. `functions/next_due.sql`) is unique in the schema.
 */
export interface RepeatableDefinition {
  name: string;
  sql: string;
}

/**
 * Migrations that belong together, applied in id order: the kit's messaging tables, its rate-limit table, a package's
 * tables (the revocation list), a service's own. Streams are applied one after another, in the order given.
 */
export interface MigrationStream {
  /** Names the stream in errors: `messaging`, `incident`. */
  name: string;
  migrations: readonly Migration[];
  /** Applied after the migrations of every stream (they may use any table), in the order given. */
  repeatables?: readonly RepeatableDefinition[];
}
