import type { EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { companyPreferencesRepository } from '../data-access/company-preferences.repository';
import { mailQueueRepository } from '../data-access/mail-queue.repository';
import { welcomeMail } from './welcome-mail';

export interface WelcomeCompanyDependencies {
  /** Base of the links in the mail. */
  publicUrl: string;
}

/** A new company: its default preferences, and the welcome mail to its first admin. */
export async function welcomeCompany(
  deps: WelcomeCompanyDependencies,
  tx: Queryable,
  company: EventPayload<'company.created'> | EventPayload<'company.created', 2>,
): Promise<void> {
  await companyPreferencesRepository.insertDefaults(tx, {
    companyId: company.company_id,
    urlIdentifier: company.url_identifier,
    name: company.name,
  });
  await mailQueueRepository.add(tx, company.company_id, welcomeMail(company, deps.publicUrl));
}
