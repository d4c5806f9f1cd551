import type { ReportingQuery, ReportingResponse } from '@whistle/contracts';
import type { ApiClient } from './client';

/** GET /api/incident/reporting?from&to (ADMIN): the company's figures for a period, both days included. */
export const getReporting = (api: ApiClient, period: ReportingQuery, signal?: AbortSignal) =>
  api.request<ReportingResponse>('GET', `/api/incident/reporting?${new URLSearchParams(period)}`, { signal });
