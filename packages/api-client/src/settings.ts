import type {
  Category,
  CategoryCreateRequest,
  CategoryUpdateRequest,
  CompanyUpdateRequest,
  EventPayload,
  LabelDeleteResponse,
  Location,
  LocationRequest,
  Role,
  SsoSettingsRequest,
  SsoSettingsResponse,
  TeamMember,
  UserProfile,
  UserProfileCreateRequest,
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

/** POST /api/account/company/user_profile/ (ADMIN): the member gets an e-mail with a set-password link. */
export const inviteMember = (api: ApiClient, member: UserProfileCreateRequest) =>
  api.request<UserProfile>('POST', '/api/account/company/user_profile/', { body: member });

/** PUT /api/account/company/user_profile/ (ADMIN): a member's roles; the last admin keeps ADMIN. */
export const changeMemberRoles = (api: ApiClient, uuid: string, roles: Role[]) =>
  api.request<TeamMember>('PUT', '/api/account/company/user_profile/', { body: { uuid, roles } });

/** POST /api/account/company/user_profile/invitation (ADMIN): a new link for a member who has not chosen a password. */
export const resendInvitation = (api: ApiClient, uuid: string) =>
  api.request<void>('POST', '/api/account/company/user_profile/invitation', { body: { uuid } });

/** DELETE /api/account/company/user_profile/ (ADMIN): the member's sessions end at once. */
export const removeMember = (api: ApiClient, uuid: string) =>
  api.request<void>('DELETE', '/api/account/company/user_profile/', { body: { uuid } });

/** GET /api/account/company/sso (ADMIN): the SAML settings, with `configured: false` before the first save. */
export const getSsoSettings = (api: ApiClient, signal?: AbortSignal) =>
  api.request<SsoSettingsResponse>('GET', '/api/account/company/sso', { signal });

/** PUT /api/account/company/sso (ADMIN): 400 with field errors for an unreadable or expired certificate. */
export const saveSsoSettings = (api: ApiClient, settings: SsoSettingsRequest) =>
  api.request<SsoSettingsResponse>('PUT', '/api/account/company/sso', { body: settings });

/** The SP metadata (its URL is also the entity id) an IdP administrator imports: a plain link, no token needed. */
export const ssoMetadataUrl = (api: ApiClient) => `${api.baseUrl}/api/account/company/sso/metadata`;

/** PUT /api/account/company/mfa (ADMIN): members without MFA must set it up at their next sign-in. */
export const setCompanyMfaRequired = (api: ApiClient, mfaRequired: boolean) =>
  api.request<{ mfa_required: boolean }>('PUT', '/api/account/company/mfa', { body: { mfa_required: mfaRequired } });
