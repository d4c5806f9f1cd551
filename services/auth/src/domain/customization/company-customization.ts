import type { CompanyCustomization } from '@whistle/contracts';
import type { CustomizationRow } from '../../data-access/company.repository';

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
