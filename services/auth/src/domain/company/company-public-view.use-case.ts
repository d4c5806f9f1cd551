import { createHash } from 'node:crypto';
import type { CompanyPublicView, LogoContentType } from '@whistle/contracts';
import type { Queryable, UnitOfWork } from '@whistle/service-kit';
import type { PublicCompanyCache } from './public-company-cache';
import { companyRepository } from '../../data-access/company.repository';
import { customizationOf } from '../customization/customization.use-case';

/** The notification channel on which auth announces that a company's public view changed (payload: url_identifier). */
export const PUBLIC_VIEW_CHANNEL = 'auth_company_public_view';

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
  const { id, title, description, logo, logo_content_type, ...rest } = row;
  const view: CompanyPublicView = {
    ...rest,
    customization: customizationOf({ url_identifier: row.url_identifier, title, description, logo }),
  };
  const json = JSON.stringify(view);
  return {
    companyId: id,
    json,
    etag: `"${createHash('sha256').update(json).digest('base64url')}"`,
    logo: logo && logo_content_type ? { sha256: logo, contentType: logo_content_type } : null,
  };
}

/** Announces, in `tx`, that the company's public view changed (customisation, which writes no event). */
export const announcePublicViewChange = (tx: Queryable, companyId: string) =>
  companyRepository.notifyPublicViewChanged(tx, PUBLIC_VIEW_CHANNEL, companyId);

/**
 * The events whose changes the public view shows: the company's name, its labels and locations, its key, and its
 * case team (who has keys, in which role, assigned to which label).
 */
const PUBLIC_VIEW_EVENTS =
  /^(company\.(updated|key_rotation_started)|category\.[a-z_]+|location\.[a-z_]+|user\.(keys_created|updated|deleted))$/;

/**
 * The unit of work with one more duty: a transaction that writes one of the events above also announces the
 * change of its company's public view to every replica, once per company, last, and this replica's cache
 * forgets it after COMMIT, so no use case can forget either.
 */
export function announcingPublicViewChanges(unitOfWork: UnitOfWork, cache: PublicCompanyCache): UnitOfWork {
  return async (work) => {
    const changed = new Set<string>();
    const result = await unitOfWork(async (tx) => {
      const value = await work({
        query: (sql, params, options) => tx.query(sql, params, options),
        async addEvent(event) {
          const envelope = await tx.addEvent(event);
          if (event.company_id && PUBLIC_VIEW_EVENTS.test(event.name)) changed.add(event.company_id);
          return envelope;
        },
      });
      for (const companyId of changed) await announcePublicViewChange(tx, companyId);
      return value;
    });
    for (const companyId of changed) cache.forget(companyId);
    return result;
  };
}
