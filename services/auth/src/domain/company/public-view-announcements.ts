import type { Queryable, UnitOfWork } from '@whistle/service-kit';
import type { PublicCompanyCache } from './public-company-cache';
import { companyRepository } from '../../data-access/company.repository';

/** The notification channel on which auth announces that a company's public view changed (payload: url_identifier). */
export const PUBLIC_VIEW_CHANNEL = 'auth_company_public_view';

/** Announces, in `tx`, that the company's public view changed (customisation, which writes no event). */
export const announcePublicViewChange = (tx: Queryable, companyId: string) =>
  companyRepository.notifyPublicViewChanged(tx, PUBLIC_VIEW_CHANNEL, companyId);

/**
 * The events whose changes the public view shows: the company's name, its labels and locations, its key, and its
 * case team (who has keys, in which role, assigned to which label, whose key an admin endorsed).
 */
const PUBLIC_VIEW_EVENTS =
  /^(company\.(updated|key_rotation_started|key_endorsed)|category\.[a-z_]+|location\.[a-z_]+|user\.(keys_created|updated|deleted))$/;

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
