import type { Queryable } from '@whistle/service-kit';

export interface AuditEventRow {
  id: string;
  companyId: string | null;
  name: string;
  version: number;
  tableIdentifier: string;
  objectId: string | null;
  occurredAt: string;
  payload: Record<string, unknown>;
}

/** The append-only audit log: rows are only ever inserted (a trigger refuses the rest). */
export const auditEventRepository = {
  /** Records the event once: a redelivered event id is ignored. */
  async insert(db: Queryable, row: AuditEventRow): Promise<void> {
    await db.query(
      `insert into audit.audit_event (id, company_id, name, version, table_identifier, object_id, occurred_at, payload)
       values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing`,
      [
        row.id,
        row.companyId,
        row.name,
        row.version,
        row.tableIdentifier,
        row.objectId,
        row.occurredAt,
        JSON.stringify(row.payload),
      ],
    );
  },
};
