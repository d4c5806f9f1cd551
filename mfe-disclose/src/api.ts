import { createApiClient } from '@whistle/api-client';

/** Same-origin API (spec §7: empty base path); disclosers never carry a token here. */
export const api = createApiClient();
