import type { EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { companyReadModelRepository } from '../../data-access/company-read-model.repository';

/** Keeps the company, its labels and locations as auth announced them. Replays are harmless (upserts). */
export async function recordCompany(tx: Queryable, company: EventPayload<'company.created'>): Promise<void> {
  await companyReadModelRepository.upsertCompany(tx, { id: company.company_id, urlIdentifier: company.url_identifier });
  for (const category of company.categories) {
    await companyReadModelRepository.upsertCategory(tx, {
      id: category.uuid,
      companyId: company.company_id,
      parentId: category.parent_uuid,
      name: category.name,
      isActive: category.is_active,
    });
  }
  for (const location of company.locations) {
    await companyReadModelRepository.upsertLocation(tx, {
      id: location.uuid,
      companyId: company.company_id,
      name: location.name,
      isActive: location.is_active,
    });
  }
}
