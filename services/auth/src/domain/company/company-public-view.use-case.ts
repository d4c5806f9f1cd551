import type { CompanyPublicView } from '@whistle/contracts';
import { NotFoundError, type Queryable } from '@whistle/service-kit';
import { companyRepository } from '../../data-access/company.repository';

/** What a discloser sees of a company: its public face and the active labels. Never staff data. */
export async function companyPublicView(db: Queryable, urlIdentifier: string): Promise<CompanyPublicView> {
  const company = await companyRepository.findPublic(db, urlIdentifier);
  if (!company) throw new NotFoundError('Company not found');
  const categories = await companyRepository.activeCategories(db, company.id);
  const locations = await companyRepository.activeLocations(db, company.id);
  return {
    url_identifier: company.url_identifier,
    name: company.name,
    logo: company.logo,
    title: company.title,
    description: company.description,
    public_key: company.public_key,
    categories,
    locations,
  };
}
