import type { CompanyPublicView } from '@whistle/contracts';
import { NotFoundError, type Queryable } from '@whistle/service-kit';
import { companyRepository } from '../../data-access/company.repository';

/** What a discloser sees of a company: its public face and the active labels. Never staff data. */
export async function companyPublicView(db: Queryable, urlIdentifier: string): Promise<CompanyPublicView> {
  const view = await companyRepository.findPublicView(db, urlIdentifier);
  if (!view) throw new NotFoundError('Company not found');
  return view;
}
