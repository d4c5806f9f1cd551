/** A connection (or a transaction) that runs parameterised SQL. Domain code sees only this. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
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
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** One forward-only migration of a service schema. `id` orders them (e.g. `001_company`). */
export interface Migration {
  id: string;
  sql: string;
}
