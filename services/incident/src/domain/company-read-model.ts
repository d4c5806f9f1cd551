import type { EventEnvelope, EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/** Keeps the company, its labels and locations as auth announced them. Replays are harmless (upserts). */
export async function onCompanyCreated(tx: Queryable, event: EventEnvelope): Promise<void> {
  const company = event.payload as EventPayload<'company.created'>;
  await tx.query('insert into incident.company (id, url_identifier) values ($1, $2) on conflict (id) do nothing', [
    company.company_id,
    company.url_identifier,
  ]);
  for (const category of company.categories) {
    await tx.query(
      `insert into incident.category (id, company_id, parent_id, name, is_active) values ($1, $2, $3, $4, $5)
       on conflict (id) do update set parent_id = excluded.parent_id, name = excluded.name, is_active = excluded.is_active`,
      [category.uuid, company.company_id, category.parent_uuid, category.name, category.is_active],
    );
  }
  for (const location of company.locations) {
    await tx.query(
      `insert into incident.location (id, company_id, name, is_active) values ($1, $2, $3, $4)
       on conflict (id) do update set name = excluded.name, is_active = excluded.is_active`,
      [location.uuid, company.company_id, location.name, location.is_active],
    );
  }
}
