import { createHash } from 'node:crypto';
import type { CompanyPublicView, LogoContentType } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { companyRepository } from '../../data-access/company.repository';
import { customizationOf, languagesOf } from '../customization/company-customization';

/** What the public routes serve of one company, computed once per change. */
export interface PublicCompany {
  companyId: string;
  /**
   * What a discloser sees of a company (its public face and the active labels, never staff data), serialised
   * once: only ever sent as it is, so the object is not kept beside it.
   */
  json: string;
  /** Strong validator of `json`. */
  etag: string;
  logo: { sha256: string; contentType: LogoContentType } | null;
}

export async function loadPublicCompany(db: Queryable, urlIdentifier: string): Promise<PublicCompany | undefined> {
  const row = await companyRepository.findPublicView(db, urlIdentifier);
  if (!row) return undefined;
  const {
    id,
    title,
    description,
    logo,
    logo_content_type,
    landing_texts,
    discloser_languages,
    default_language,
    ...rest
  } = row;
  const languages = languagesOf({ discloser_languages, default_language });
  const view: CompanyPublicView = {
    ...rest,
    customization: customizationOf(
      { url_identifier: row.url_identifier, title, description, logo, landing_texts },
      languages.offered,
    ),
    languages,
  };
  const json = JSON.stringify(view);
  return {
    companyId: id,
    json,
    etag: `"${createHash('sha256').update(json).digest('base64url')}"`,
    logo: logo && logo_content_type ? { sha256: logo, contentType: logo_content_type } : null,
  };
}
