import { NotAllowedError } from '@whistle/service-kit';
import type { DiscloserPrincipal } from '@whistle/tokens';

/** Who acts on an incident, as proven by the request's token. */
export interface IncidentActor {
  companyId: string;
  incidentId: string;
  source: 'DISCLOSER' | 'STAFF';
  /** Shown as the sender of this actor's messages. */
  name: string;
  /** The staff author; null for a discloser, who has no account. */
  userId: string | null;
}

/**
 * The name shown with a discloser's message ('Message sent by {name}'). The server knows no
 * discloser's name (it is an encrypted field, if given at all), so disclosers are named by their role.
 */
export const DISCLOSER_SENDER_NAME = 'Discloser';

/** A discloser acts on the one incident their session token opens, and on no other. */
export function discloserActor(discloser: DiscloserPrincipal, incidentId: string): IncidentActor {
  if (discloser.incidentId !== incidentId) throw new NotAllowedError('This session is for another incident');
  return {
    companyId: discloser.companyId,
    incidentId,
    source: 'DISCLOSER',
    name: DISCLOSER_SENDER_NAME,
    userId: null,
  };
}
