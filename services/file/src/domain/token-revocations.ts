import { revocationListFor } from '@whistle/tokens';
import { FILE_SCHEMA } from '../data-access/migrations';

/**
 * Staff whose sessions ended (removal, new password, new roles): their file tokens, signed by the incident service
 * before that, are refused here too. Logouts do not concern file tokens (they carry no staff token id).
 */
export const tokenRevocations = revocationListFor(FILE_SCHEMA);
