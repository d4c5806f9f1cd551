import {
  DISCLOSER_LANGUAGE_CODES,
  type CompanyCustomization,
  type CompanyLanguages,
  type CustomizationUpdateRequest,
  type LanguagesUpdateRequest,
  type LogoUploadRequest,
} from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import { NotFoundError, type Database, type Logger, type Queryable, type UnitOfWork } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { companyRepository } from '../../data-access/company.repository';
import { announcePublicViewChange } from '../company/public-view-announcements';
import type { PublicCompanyCache } from '../company/public-company-cache';
import { customizationOf, languagesOf, logoObjectKey } from './company-customization';
import { readLogo } from './logo-image';
import { sanitizeRichText } from './rich-text';

export interface CustomizationDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  objects: ObjectStore;
  logger: Logger;
  publicCompanies: PublicCompanyCache;
}

/** GET /api/account/company/customization (ADMIN): the current customisation. */
export async function getCustomization(
  deps: Pick<CustomizationDependencies, 'db'>,
  principal: StaffPrincipal,
): Promise<CompanyCustomization> {
  const row = await companyRepository.customization(deps.db, principal.companyId);
  if (!row) throw new NotFoundError('Company not found');
  return customizationOf(row);
}

/**
 * PUT /api/account/company/customization (ADMIN): the title as plain text (React escapes it where it is shown)
 * and the description sanitised here, once, before it is stored; empty values bring the defaults back.
 */
export async function updateCustomization(
  deps: CustomizationDependencies,
  principal: StaffPrincipal,
  input: CustomizationUpdateRequest,
): Promise<CompanyCustomization> {
  const title = input.title ? input.title : null;
  const description = input.description === null ? null : sanitizeRichText(input.description);
  const { language } = input;
  const row = await changePublicView(deps, principal.companyId, (tx) =>
    language
      ? companyRepository.setLandingText(tx, principal.companyId, language, title, description)
      : companyRepository.setTitleAndDescription(tx, principal.companyId, title, description),
  );
  if (!row) throw new NotFoundError('Company not found');
  return customizationOf(row);
}

/**
 * PUT /api/account/company/languages (ADMIN): the languages the disclosure page offers and its default. Offering
 * every language stores null, so a language the platform adds later is offered too.
 */
export async function updateLanguages(
  deps: CustomizationDependencies,
  principal: StaffPrincipal,
  input: LanguagesUpdateRequest,
): Promise<CompanyLanguages> {
  const everyLanguage = DISCLOSER_LANGUAGE_CODES.every((language) => input.offered.includes(language));
  const row = await changePublicView(deps, principal.companyId, (tx) =>
    companyRepository.setLanguages(tx, principal.companyId, everyLanguage ? null : input.offered, input.default),
  );
  if (!row) throw new NotFoundError('Company not found');
  return languagesOf(row);
}

/**
 * Writes the company's customisation (which writes no event, so the announcing unit of work does not see it),
 * announcing the change of its public view to every replica in the same transaction when a row changed; this
 * replica forgets it at once.
 */
async function changePublicView<Row>(
  deps: CustomizationDependencies,
  companyId: string,
  write: (tx: Queryable) => Promise<Row | undefined>,
): Promise<Row | undefined> {
  const row = await deps.db.transaction(async (tx) => {
    const updated = await write(tx);
    if (updated) await announcePublicViewChange(tx, companyId);
    return updated;
  });
  deps.publicCompanies.forget(companyId);
  return row;
}

/** Removes an object no row names any more; a failure only leaves an orphan behind, so it is logged, not thrown. */
async function removeOldLogo(deps: CustomizationDependencies, companyId: string, sha256: string | null) {
  if (!sha256) return;
  await deps.objects
    .delete(logoObjectKey(companyId, sha256))
    .catch((err: unknown) => deps.logger.warn({ err }, 'replaced logo not removed from the object store'));
}

/**
 * PUT /api/account/company/customization/logo (ADMIN): the image is checked and (SVG) sanitised, stored under
 * its hash, then named by the company row; the image it replaces is removed after.
 */
export async function uploadLogo(
  deps: CustomizationDependencies,
  principal: StaffPrincipal,
  input: LogoUploadRequest,
): Promise<CompanyCustomization> {
  const logo = readLogo(input.content);
  const key = logoObjectKey(principal.companyId, logo.sha256);
  await deps.objects.put(key, logo.bytes, { size: logo.bytes.length, contentType: logo.contentType });
  const row = await changePublicView(deps, principal.companyId, (tx) =>
    companyRepository.setLogo(tx, principal.companyId, logo),
  );
  if (!row) {
    await deps.objects.delete(key);
    throw new NotFoundError('Company not found');
  }
  if (row.previous_logo !== logo.sha256) await removeOldLogo(deps, principal.companyId, row.previous_logo);
  return customizationOf(row);
}

/** DELETE /api/account/company/customization/logo (ADMIN): back to the default logo. */
export async function removeLogo(
  deps: CustomizationDependencies,
  principal: StaffPrincipal,
): Promise<CompanyCustomization> {
  const row = await changePublicView(deps, principal.companyId, (tx) =>
    companyRepository.setLogo(tx, principal.companyId, null),
  );
  if (!row) throw new NotFoundError('Company not found');
  await removeOldLogo(deps, principal.companyId, row.previous_logo);
  return customizationOf(row);
}

/** GET /api/account/company/{url_identifier}/logo: the stored image, for anyone (it is on the public page). */
export async function publicLogo(
  deps: Pick<CustomizationDependencies, 'objects' | 'publicCompanies'>,
  urlIdentifier: string,
) {
  const company = await deps.publicCompanies.get(urlIdentifier).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError('Logo not found') : error;
  });
  if (!company.logo) throw new NotFoundError('Logo not found');
  const { sha256, contentType } = company.logo;
  return { sha256, contentType, open: () => deps.objects.get(logoObjectKey(company.companyId, sha256)) };
}
