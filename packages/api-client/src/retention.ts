import type { RetentionPolicy, RetentionUpdateRequest } from '@whistle/contracts';
import type { ApiClient } from './client';

/** GET /api/incident/retention (ADMIN): how long closed cases are kept, and the warning days. */
export const getRetentionPolicy = (api: ApiClient, signal?: AbortSignal) =>
  api.request<RetentionPolicy>('GET', '/api/incident/retention', { signal });

/** PUT /api/incident/retention (ADMIN): a new number of months; 400 with a field error outside 1–120. */
export const setRetentionPolicy = (api: ApiClient, policy: RetentionUpdateRequest) =>
  api.request<RetentionPolicy>('PUT', '/api/incident/retention', { body: policy });
