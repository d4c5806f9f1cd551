import type {
  Category,
  CategoryCreateRequest,
  CategoryUpdateRequest,
  CompanyUpdateRequest,
  EventPayload,
  LabelDeleteResponse,
  Location,
  LocationRequest,
} from '@whistle/contracts';
import type { ApiClient } from './client';

/** The company's state after PUT /api/account/company: name, country and settings. */
export type CompanySettings = EventPayload<'company.updated'>;

/** PUT /api/account/company (ADMIN): name and country, or settings {resolution_deadline_days}, or settings {notifications}. */
export const updateCompany = (api: ApiClient, changes: CompanyUpdateRequest) =>
  api.request<CompanySettings>('PUT', '/api/account/company', { body: changes });

export const createCategory = (api: ApiClient, category: CategoryCreateRequest) =>
  api.request<Category>('POST', '/api/account/company/category/', { body: category });

export const updateCategory = (api: ApiClient, categoryUuid: string, changes: CategoryUpdateRequest) =>
  api.request<Category>('PUT', `/api/account/company/category/${encodeURIComponent(categoryUuid)}`, { body: changes });

/** Deleted, or kept inactive because cases carry it. */
export const deleteCategory = (api: ApiClient, categoryUuid: string) =>
  api.request<LabelDeleteResponse>('DELETE', `/api/account/company/category/${encodeURIComponent(categoryUuid)}`);

export const createLocation = (api: ApiClient, location: LocationRequest) =>
  api.request<Location>('POST', '/api/account/company/location/', { body: location });

export const updateLocation = (api: ApiClient, locationUuid: string, location: LocationRequest) =>
  api.request<Location>('PUT', `/api/account/company/location/${encodeURIComponent(locationUuid)}`, { body: location });

export const deleteLocation = (api: ApiClient, locationUuid: string) =>
  api.request<LabelDeleteResponse>('DELETE', `/api/account/company/location/${encodeURIComponent(locationUuid)}`);
