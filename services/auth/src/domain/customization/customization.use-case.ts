import type { CompanyCustomization, CustomizationUpdateRequest, LogoUploadRequest } from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import { NotFoundError, type Database, type Logger, type UnitOfWork } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { companyRepository, type CustomizationRow } from '../../data-access/company.repository';
import { readLogo } from './logo-image';
import { sanitizeRichText } from './rich-text';

export interface CustomizationDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  objects: ObjectStore;
  logger: Logger;
}

/** Where a logo's bytes live: one object per image content, under its company. */
export const logoObjectKey = (companyId: string, sha256: string) => `company/${companyId}/logo/${sha256}`;

/**
 * The logo's public address. The hash in the query changes with the image, so the answer can be cached for
 * good under it; the path itself stays the same for a company.
 */
export const logoUrl = (urlIdentifier: string, sha256: string) =>
  `/api/account/company/${urlIdentifier}/logo?v=${sha256.slice(0, 16)}`;

export function customizationOf(row: Pick<CustomizationRow, 'url_identifier' | 'title' | 'description' | 'logo'>) {
  return {
    title: row.title,
    description: row.description,
    logo_url: row.logo ? logoUrl(row.url_identifier, row.logo) : null,
  } satisfies CompanyCustomization;
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
  const row = await companyRepository.setTitleAndDescription(deps.db, principal.companyId, title, description);
  if (!row) throw new NotFoundError('Company not found');
  return customizationOf(row);
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
  const row = await companyRepository.setLogo(deps.db, principal.companyId, logo);
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
  const row = await companyRepository.setLogo(deps.db, principal.companyId, null);
  if (!row) throw new NotFoundError('Company not found');
  await removeOldLogo(deps, principal.companyId, row.previous_logo);
  return customizationOf(row);
}

/** GET /api/account/company/{url_identifier}/logo: the stored image, for anyone (it is on the public page). */
export async function publicLogo(deps: Pick<CustomizationDependencies, 'db' | 'objects'>, urlIdentifier: string) {
  const row = await companyRepository.publicLogo(deps.db, urlIdentifier);
  if (!row) throw new NotFoundError('Logo not found');
  return {
    sha256: row.logo,
    contentType: row.logo_content_type,
    open: () => deps.objects.get(logoObjectKey(row.id, row.logo)),
  };
}
