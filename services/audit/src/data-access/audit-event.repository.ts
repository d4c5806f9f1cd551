import type { Queryable } from '@whistle/service-kit';

export interface NewAuditEntry {
  id: string;
  companyId: string | null;
  name: string;
  version: number;
  action: string;
  success: boolean;
  tableIdentifier: string;
  objectId: string | null;
  incidentId: string | null;
  actor: { type: 'STAFF' | 'DISCLOSER' | 'SYSTEM'; userId: string | null; name: string };
  occurredAt: string;
  payload: Record<string, unknown>;
}

export interface AuditEntryRow {
  id: string;
  action: string;
  success: boolean;
  table_identifier: string;
  object_id: string | null;
  incident_id: string | null;
  actor_type: 'STAFF' | 'DISCLOSER' | 'SYSTEM';
  actor_user_id: string | null;
  actor_name: string;
  occurred_at: Date;
  seq: string;
}

export interface AuditFilter {
  companyId: string;
  /** Who reads: the entries of a case they are kept out of are left out (audit.case_exclusion). */
  viewerId?: string;
  tableIdentifiers?: readonly string[];
  objectId?: string;
  incidentId?: string;
  userId?: string;
  action?: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
}

/** The filter as SQL conditions and parameters; every query is scoped to one company. */
function where(filter: AuditFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.companyId];
  const conditions = ['company_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (filter.tableIdentifiers?.length) add((p) => `table_identifier = any(${p}::text[])`, filter.tableIdentifiers);
  if (filter.objectId) add((p) => `object_id = ${p}`, filter.objectId);
  if (filter.incidentId) add((p) => `incident_id = ${p}`, filter.incidentId);
  if (filter.userId) add((p) => `actor_user_id = ${p}`, filter.userId);
  if (filter.action) add((p) => `action = ${p}`, filter.action);
  if (filter.from) add((p) => `occurred_at >= ${p}::date`, filter.from);
  if (filter.to) add((p) => `occurred_at < ${p}::date + 1`, filter.to);
  if (filter.viewerId)
    add(
      (p) => `(incident_id is null or not exists (select 1 from audit.case_exclusion x
                where x.incident_id = audit.audit_event.incident_id and x.user_id = ${p}))`,
      filter.viewerId,
    );
  return { sql: conditions.join(' and '), params };
}

const COLUMNS = `id, action, success, table_identifier, object_id, incident_id, actor_type, actor_user_id, actor_name,
  occurred_at, seq`;

/** The append-only audit log: rows are only ever inserted (a trigger refuses the rest, another links the chain). */
export const auditEventRepository = {
  async exists(db: Queryable, id: string): Promise<boolean> {
    return (await db.query('select 1 from audit.audit_event where id = $1', [id])).rows.length > 0;
  },

  async insert(db: Queryable, entry: NewAuditEntry): Promise<void> {
    await db.query(
      `insert into audit.audit_event (id, company_id, name, version, action, success, table_identifier, object_id,
         incident_id, actor_type, actor_user_id, actor_name, occurred_at, payload)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        entry.id,
        entry.companyId,
        entry.name,
        entry.version,
        entry.action,
        entry.success,
        entry.tableIdentifier,
        entry.objectId,
        entry.incidentId,
        entry.actor.type,
        entry.actor.userId,
        entry.actor.name,
        entry.occurredAt,
        JSON.stringify(entry.payload),
      ],
    );
  },

  /** One page, newest first, and how many entries match. */
  async page(db: Queryable, filter: AuditFilter, page: { offset: number; limit: number }) {
    const { sql, params } = where(filter);
    const { rows } = await db.query<AuditEntryRow>(
      `select ${COLUMNS} from audit.audit_event where ${sql}
        order by occurred_at desc, seq desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    const counted = await db.query<{ count: string }>(
      `select count(*) as count from audit.audit_event where ${sql}`,
      params,
    );
    return { rows, count: Number(counted.rows[0]?.count ?? 0) };
  },

  /** Entries after `afterSeq` in chain order, `limit` at a time (the CSV export walks the trail with it). */
  async batch(db: Queryable, filter: AuditFilter, afterSeq: string, limit: number): Promise<AuditEntryRow[]> {
    const { sql, params } = where(filter);
    const { rows } = await db.query<AuditEntryRow>(
      `select ${COLUMNS} from audit.audit_event where ${sql} and seq > $${params.length + 1}
        order by seq limit $${params.length + 2}`,
      [...params, afterSeq, limit],
    );
    return rows;
  },

  /**
   * The company's chain checked by the database with the definition it links with: each entry's hash must be
   * the hash of its own fields and of the entry before it, and the sequence must have no gap.
   */
  async firstBrokenLink(
    db: Queryable,
    companyId: string,
  ): Promise<{ checked: number; broken?: { id: string; seq: string }; truncated: boolean }> {
    const { rows } = await db.query<{ id: string; seq: string }>(
      `with chain as (
         select e.id, e.seq, e.hash, e.prev_hash, audit.entry_hash(e) as expected,
                lag(e.hash, 1, '') over (order by e.seq) as previous_hash,
                row_number() over (order by e.seq) as position
           from audit.audit_event e where e.company_id = $1)
       select id, seq from chain where hash <> expected or prev_hash <> previous_hash or seq <> position
        order by seq limit 1`,
      [companyId],
    );
    // The head must also point at the last entry, or entries were cut off the end of the chain.
    const { rows: ends } = await db.query<{ count: string; truncated: boolean }>(
      `select (select count(*) from audit.audit_event where company_id = $1) as count,
              coalesce(head.seq <> coalesce(last.seq, 0) or head.hash <> coalesce(last.hash, ''), false) as truncated
         from (select 1) one
         left join audit.chain_head head on head.company_key = $1
         left join lateral (
           select seq, hash from audit.audit_event where company_id = $1 order by seq desc limit 1) last on true`,
      [companyId],
    );
    return {
      checked: Number(ends[0]?.count ?? 0),
      truncated: ends[0]?.truncated ?? false,
      ...(rows[0] ? { broken: { id: rows[0].id, seq: rows[0].seq } } : {}),
    };
  },
};
