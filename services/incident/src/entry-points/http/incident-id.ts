import type { Request } from 'express';
import { NotFoundError } from '@whistle/service-kit';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An incident id in the path (`param`) that is not even a uuid is answered like an unknown incident. */
export function incidentIdOf(req: Request, param = 'incident_uuid'): string {
  const id = String(req.params[param]);
  if (!uuidPattern.test(id)) throw new NotFoundError('Incident not found');
  return id.toLowerCase();
}
