import type { Request, RequestHandler } from 'express';
import { decodeJwt } from 'jose';
import { asTenant, NotAllowedError, type Queryable } from '@whistle/service-kit';
import {
  bearerToken,
  STAFF_TOKEN_AUDIENCE,
  type IncidentSessionPrincipal,
  type IncidentSessionVerifier,
  type StaffTokenVerifier,
} from '@whistle/tokens';
import { discloserActor, staffActor, type IncidentActor } from '../../domain/access/incident-actor';
import type { StaffViewer } from '../../domain/access/staff-access';

export interface CallerScopeDependencies {
  staffTokens: StaffTokenVerifier;
  /** Given on the routes disclosers share with staff (a case's thread and files): their session tokens pass too. */
  incidentSessions?: IncidentSessionVerifier;
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

/** Who a request's token proved the caller to be: a staff member, or the holder of an incident session. */
type Caller = { staff: StaffViewer; signedInAt: Date } | { session: IncidentSessionPrincipal };

const callers = new WeakMap<Request, Caller>();

async function verifyCaller(deps: CallerScopeDependencies, req: Request): Promise<Caller> {
  if (deps.incidentSessions && !carriesStaffToken(req))
    return { session: await deps.incidentSessions.verifyRequest(req) };
  const principal = await deps.staffTokens.verify(bearerToken(req) ?? '');
  if (principal.mfaEnrollmentRequired) throw new NotAllowedError('MFA setup required');
  return {
    staff: { userId: principal.userId, companyId: principal.companyId, roles: principal.roles },
    signedInAt: principal.authenticatedAt,
  };
}

/**
 * Express middleware of every route that acts for a caller with a token: 401 unless the request carries a valid,
 * unrevoked staff access token (or, with `incidentSessions`, an incident session token), 403 while the staff
 * member's MFA set-up is due. The rest of the request runs as the company the token names (asTenant), so a query
 * that forgets its company condition still sees and writes no other company's rows. The token is checked before
 * the scope opens: revocations are every company's, read as the service.
 */
export function callerScope(deps: CallerScopeDependencies): RequestHandler {
  return (req, _res, next) => {
    verifyCaller(deps, req)
      .then((caller) => {
        callers.set(req, caller);
        asTenant('staff' in caller ? caller.staff.companyId : caller.session.companyId, next);
      }, next)
      .catch(next);
  };
}

/** The staff member `callerScope` verified; throws on a route without it or open to incident sessions. */
export function staffViewerOf(req: Request): StaffViewer {
  const caller = callers.get(req);
  if (!caller || !('staff' in caller)) throw new Error('staffViewerOf() on a route without a staff callerScope()');
  return caller.staff;
}

/**
 * When the staff member `callerScope` verified signed in: the session their token belongs to (tokens refreshed
 * within one sign-in keep its time).
 */
export function staffSignInOf(req: Request): Date {
  const caller = callers.get(req);
  if (!caller || !('staff' in caller)) throw new Error('staffSignInOf() on a route without a staff callerScope()');
  return caller.signedInAt;
}

/**
 * Who the request `callerScope` verified acts as on `incidentId`: a discloser with their session token (that
 * incident only), or a staff member, when they may see the case (else 404, as for an unknown case).
 */
export async function actorOf(db: Queryable, req: Request, incidentId: string): Promise<IncidentActor> {
  const caller = callers.get(req);
  if (!caller) throw new Error('actorOf() on a route without callerScope()');
  if ('session' in caller) return discloserActor(caller.session, incidentId);
  return staffActor(db, caller.staff, incidentId);
}
