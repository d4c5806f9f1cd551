import type {
  CompanyCustomization,
  CompanyLanguages,
  CustomizationUpdateRequest,
  LanguagesUpdateRequest,
} from '@whistle/contracts';
import type { ApiClient } from './client';

const path = '/api/account/company/customization';

/** PUT /api/account/company/customization (ADMIN): the answer carries the description as the server stored it. */
export const updateCustomization = (api: ApiClient, changes: CustomizationUpdateRequest) =>
  api.request<CompanyCustomization>('PUT', path, { body: changes });

/** PUT /api/account/company/customization/logo (ADMIN): the image as base64; the server reads its type itself. */
export const uploadLogo = (api: ApiClient, contentBase64: string) =>
  api.request<CompanyCustomization>('PUT', `${path}/logo`, { body: { content: contentBase64 } });

/** DELETE /api/account/company/customization/logo (ADMIN): back to the default logo. */
export const removeLogo = (api: ApiClient) => api.request<CompanyCustomization>('DELETE', `${path}/logo`);

/** PUT /api/account/company/languages (ADMIN): the languages the disclosure page offers, and its default. */
export const updateLanguages = (api: ApiClient, languages: LanguagesUpdateRequest) =>
  api.request<CompanyLanguages>('PUT', '/api/account/company/languages', { body: languages });
