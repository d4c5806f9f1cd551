import type { Request } from 'express';
import type { DiscloserTokenVerifier } from '@whistle/tokens';
import { discloserActor, type IncidentActor } from '../../domain/access/incident-actor';

/**
 * Who the request acts as on `incidentId`, from its token. Today only discloser session tokens are
 * accepted (one incident each). Staff sign-in extends this one function: verify the staff token with
 * @whistle/tokens, and let the domain decide whether that staff member may act on the incident.
 */
export function incidentAccess(discloserTokens: DiscloserTokenVerifier) {
  return async function actorFor(req: Request, incidentId: string): Promise<IncidentActor> {
    return discloserActor(await discloserTokens.verifyRequest(req), incidentId);
  };
}
