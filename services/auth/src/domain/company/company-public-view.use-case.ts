import type { CompanyPublicView } from '@whistle/contracts';
import { NotFoundError, type Queryable } from '@whistle/service-kit';
import { companyRepository } from '../../data-access/company.repository';
import { customizationOf } from '../customization/customization.use-case';

/** What a discloser sees of a company: its public face and the active labels. Never staff data. */
export async function companyPublicView(db: Queryable, urlIdentifier: string): Promise<CompanyPublicView> {
  const row = await companyRepository.findPublicView(db, urlIdentifier);
  if (!row) throw new NotFoundError('Company not found');
  const { title, description, logo, ...view } = row;
  return { ...view, customization: customizationOf({ url_identifier: row.url_identifier, title, description, logo }) };
}
