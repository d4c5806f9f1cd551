import type { ReplyTemplate, ReplyTemplateRequest } from '@whistle/contracts';
import type { ApiClient } from './client';

const PATH = '/api/account/company/reply_template/';

/** GET /api/account/company/reply_template/: the company's reply templates, by name (any staff member). */
export const listReplyTemplates = (api: ApiClient, signal?: AbortSignal) =>
  api.request<ReplyTemplate[]>('GET', PATH, { signal });

/** POST /api/account/company/reply_template/ (ADMIN). */
export const createReplyTemplate = (api: ApiClient, template: ReplyTemplateRequest) =>
  api.request<ReplyTemplate>('POST', PATH, { body: template });

/** PUT /api/account/company/reply_template/{uuid} (ADMIN): its name and text. */
export const updateReplyTemplate = (api: ApiClient, templateUuid: string, template: ReplyTemplateRequest) =>
  api.request<ReplyTemplate>('PUT', `${PATH}${encodeURIComponent(templateUuid)}`, { body: template });

/** DELETE /api/account/company/reply_template/{uuid} (ADMIN). */
export const deleteReplyTemplate = (api: ApiClient, templateUuid: string) =>
  api.request<void>('DELETE', `${PATH}${encodeURIComponent(templateUuid)}`);
