import type { Request } from 'express';
import { decodeJwt } from 'jose';
import { NotAllowedError, type Database } from '@whistle/service-kit';
import {
  bearerToken,
  STAFF_TOKEN_AUDIENCE,
  type IncidentSessionVerifier,
  type StaffTokenVerifier,
} from '@whistle/tokens';
import { discloserActor, staffActor, type IncidentActor } from '../../domain/access/incident-actor';
import type { StaffViewer } from '../../domain/access/staff-access';

export interface IncidentAccessDependencies {
  db: Database;
  incidentSessions: IncidentSessionVerifier;
  staffTokens: StaffTokenVerifier;
}

/** Whether the request's Bearer is a staff access token (by its audience; the signature is checked after). */
export function carriesStaffToken(req: Request): boolean {
  const token = bearerToken(req);
  if (!token) return false;
  try {
    const audience = decodeJwt(token).aud;
    return audience === STAFF_TOKEN_AUDIENCE || (Array.isArray(audience) && audience.includes(STAFF_TOKEN_AUDIENCE));
  } catch {
    return false;
  }
}

/**
 * Who the request acts as on `incidentId`: a discloser with their session token (that incident only), or a
 * staff member with their access token, when they may see the case (else 404, as for an unknown case).
 */
export function incidentAccess(deps: IncidentAccessDependencies) {
  return async function actorFor(req: Request, incidentId: string): Promise<IncidentActor> {
    if (!carriesStaffToken(req)) return discloserActor(await deps.incidentSessions.verifyRequest(req), incidentId);
    return staffActor(deps.db, await staffViewerOf(deps.staffTokens, req), incidentId);
  };
}

/** The staff member a request's access token names: 401 unless valid and unrevoked, 403 while MFA set-up is due. */
export async function staffViewerOf(staffTokens: StaffTokenVerifier, req: Request): Promise<StaffViewer> {
  const principal = await staffTokens.verify(bearerToken(req) ?? '');
  if (principal.mfaEnrollmentRequired) throw new NotAllowedError('MFA setup required');
  return { userId: principal.userId, companyId: principal.companyId, roles: principal.roles };
}
