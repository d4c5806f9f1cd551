import type { Request } from 'express';
import { NotAllowedError, type DiscloserTokenVerifier } from '@whistle/service-kit';
import { DISCLOSER_SENDER_NAME } from '../../domain/messages/incident-messages.use-case';

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
 * Decides whether a request may read or write `incidentId`. Today only discloser session tokens are
 * accepted (one incident each). Staff sign-in extends this one function: verify the staff token with
 * service-kit's verifier, check the incident belongs to the token's company and the role may see it,
 * and return `source: 'STAFF'` with the user's id and name; routes and use cases stay as they are.
 */
export function incidentAccess(discloserTokens: DiscloserTokenVerifier) {
  return async function actorFor(req: Request, incidentId: string): Promise<IncidentActor> {
    const discloser = await discloserTokens.verifyRequest(req);
    if (discloser.incidentId !== incidentId) throw new NotAllowedError('This session is for another incident');
    return {
      companyId: discloser.companyId,
      incidentId,
      source: 'DISCLOSER',
      name: DISCLOSER_SENDER_NAME,
      userId: null,
    };
  };
}
