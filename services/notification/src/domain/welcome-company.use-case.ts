import type { EventPayload } from '@whistle/contracts';
import type { Mailer } from '@whistle/mailer';
import type { Queryable } from '@whistle/service-kit';
import { companyPreferencesRepository } from '../data-access/company-preferences.repository';
import { welcomeMail } from './welcome-mail';

export interface WelcomeCompanyDependencies {
  mailer: Mailer;
  /** Base of the links in the mail. */
  publicUrl: string;
}

/** A new company: its default preferences, and the welcome mail to its first admin. */
export async function welcomeCompany(
  deps: WelcomeCompanyDependencies,
  tx: Queryable,
  company: EventPayload<'company.created'>,
): Promise<void> {
  await companyPreferencesRepository.insertDefaults(tx, {
    companyId: company.company_id,
    urlIdentifier: company.url_identifier,
    name: company.name,
  });
  // Sent inside the consumer transaction: if the mail server refuses, the event is retried, not lost.
  await deps.mailer.send(welcomeMail(company, deps.publicUrl));
}
