export { ApiError, RequestAbortedError } from './api-error';
export { createApiClient, type ApiClient, type ApiClientOptions, type HttpMethod, type RequestOptions } from './client';
export { companyQrCodeUrl, createCompany, getCompanyPublicView } from './company';
