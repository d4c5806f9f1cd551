import { revocationListFor } from '@whistle/tokens';
import { INCIDENT_SCHEMA } from '../../data-access/migrations';

/** The staff tokens this service refuses before they expire (logouts, removals, new passwords, new roles). */
export const tokenRevocations = revocationListFor(INCIDENT_SCHEMA);
