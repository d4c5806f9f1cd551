import type { EventPayload } from '@whistle/contracts';
import type { ServiceSubscription } from '@whistle/service-kit';
import { welcomeCompany, type WelcomeCompanyDependencies } from '../../domain/welcome-company.use-case';

/** Auth's company events: a new company gets its preferences and its welcome mail. */
export function companyEventsSubscription(deps: WelcomeCompanyDependencies): ServiceSubscription {
  return {
    consumer: 'notification',
    events: ['company.created'],
    handle: (tx, event) => welcomeCompany(deps, tx, event.payload as EventPayload<'company.created'>),
  };
}
