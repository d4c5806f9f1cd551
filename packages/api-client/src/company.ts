import type { CompanyCreateRequest, CompanyCreateResponse, CompanyPublicView } from '@whistle/contracts';
import type { ApiClient } from './client';

const companyPath = (urlIdentifier: string) => `/api/account/company/${encodeURIComponent(urlIdentifier)}`;

/** POST /api/account/company: self-registration of a company and its first admin. */
export const createCompany = (api: ApiClient, payload: CompanyCreateRequest, signal?: AbortSignal) =>
  api.request<CompanyCreateResponse>('POST', '/api/account/company', { body: payload, signal });

/** GET /api/account/company/{url_identifier}: what a discloser sees of a company. */
export const getCompanyPublicView = (api: ApiClient, urlIdentifier: string, signal?: AbortSignal) =>
  api.request<CompanyPublicView>('GET', companyPath(urlIdentifier), { signal });

/** URL of the company's QR code image (PNG), for an `<img src>`. */
export const companyQrCodeUrl = (api: ApiClient, urlIdentifier: string) =>
  `${api.baseUrl}${companyPath(urlIdentifier)}/qrcode`;

/** POST /api/account/company/confirmation: the first admin confirms the e-mailed link; the company becomes active. */
export const confirmCompany = (api: ApiClient, token: string, signal?: AbortSignal) =>
  api.request<CompanyCreateResponse>('POST', '/api/account/company/confirmation', { body: { token }, signal });
