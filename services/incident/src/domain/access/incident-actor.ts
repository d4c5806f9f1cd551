import { NotAllowedError, NotFoundError, type Queryable } from '@whistle/service-kit';
import type { IncidentSessionPrincipal } from '@whistle/tokens';
import { caseRepository } from '../../data-access/case.repository';
import { staffRepository } from '../../data-access/staff.repository';
import { scopeOf, type StaffViewer } from './staff-access';

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
/** A staff member the incident service has not heard of yet (auth's user.created still on its way). */
export const UNKNOWN_STAFF_NAME = 'Case handler';

export const notFound = () => new NotFoundError('Incident not found');

/** A discloser acts on the one incident their session token opens, and on no other. */
export function discloserActor(session: IncidentSessionPrincipal, incidentId: string): IncidentActor {
  // A staff member's file token opens files, not the thread: staff write with their own access token.
  if (session.actor.type !== 'DISCLOSER') throw new NotAllowedError('This token is for files only');
  if (session.incidentId !== incidentId) throw new NotAllowedError('This session is for another incident');
  return {
    companyId: session.companyId,
    incidentId,
    source: 'DISCLOSER',
    name: DISCLOSER_SENDER_NAME,
    userId: null,
  };
}

/** A staff member acts on a case they may see (and only then: otherwise 404, as for an unknown case). */
export async function staffActor(db: Queryable, viewer: StaffViewer, incidentId: string): Promise<IncidentActor> {
  if (!(await caseRepository.find(db, scopeOf(viewer), incidentId))) throw notFound();
  const names = await staffRepository.names(db, viewer.companyId, [viewer.userId]);
  return {
    companyId: viewer.companyId,
    incidentId,
    source: 'STAFF',
    name: names.get(viewer.userId) ?? UNKNOWN_STAFF_NAME,
    userId: viewer.userId,
  };
}

/** The event actor of an incident actor. */
export const eventActorOf = (actor: IncidentActor) =>
  actor.userId ? ({ type: 'STAFF', user_id: actor.userId } as const) : ({ type: 'DISCLOSER' } as const);
