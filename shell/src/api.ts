import { createApiClient } from '@whistle/api-client';

/** Same-origin API (spec §7: empty base path). */
export const api = createApiClient();
