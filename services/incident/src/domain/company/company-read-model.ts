import type { EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { companyReadModelRepository } from '../../data-access/company-read-model.repository';

/**
 * What the incident service knows of companies, their reporting labels and locations, as auth announces
 * them. Every write is an upsert scoped to the event's company, so a replayed event changes nothing and an
 * event of one company never touches another's rows.
 */
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

export async function recordCompanySettings(
  tx: Queryable,
  companyId: string,
  company: EventPayload<'company.updated'>,
): Promise<void> {
  await companyReadModelRepository.setResolutionDeadline(tx, companyId, company.resolution_deadline_days);
}

export async function recordCategory(
  tx: Queryable,
  companyId: string,
  category: EventPayload<'category.created'>,
): Promise<void> {
  await companyReadModelRepository.upsertCategory(tx, {
    id: category.category_id,
    companyId,
    parentId: category.parent_id,
    name: category.name,
    isActive: category.is_active,
    assigneeIds: category.assignee_ids,
  });
  await companyReadModelRepository.refreshSortCategory(tx, companyId, category.category_id);
}

export async function removeCategory(tx: Queryable, companyId: string, categoryId: string): Promise<void> {
  await companyReadModelRepository.markCategoryDeleted(tx, companyId, categoryId);
}

export async function recordLocation(
  tx: Queryable,
  companyId: string,
  location: EventPayload<'location.created'>,
): Promise<void> {
  await companyReadModelRepository.upsertLocation(tx, {
    id: location.location_id,
    companyId,
    name: location.name,
    isActive: location.is_active,
  });
}

export async function removeLocation(tx: Queryable, companyId: string, locationId: string): Promise<void> {
  await companyReadModelRepository.deactivateLocation(tx, companyId, locationId);
}
