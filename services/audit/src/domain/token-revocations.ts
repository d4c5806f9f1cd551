import { revocationListFor } from '@whistle/tokens';
import { AUDIT_SCHEMA } from '../data-access/migrations';

/** The staff tokens the audit endpoints refuse before they expire (logouts, removals, new passwords, new roles). */
export const tokenRevocations = revocationListFor(AUDIT_SCHEMA);
