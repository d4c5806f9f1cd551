import { randomUUID } from 'node:crypto';
import {
  REPLY_TEMPLATE_LANGUAGE_NOT_OFFERED,
  REPLY_TEMPLATES_PER_COMPANY,
  STAFF_LANGUAGE_CODES,
  type DiscloserLanguage,
  type ReplyTemplate,
  type ReplyTemplateRequest,
} from '@whistle/contracts';
import { InputError, NotFoundError, type Database, type Queryable } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { replyTemplateRepository, type ReplyTemplateRow } from '../../data-access/reply-template.repository';
import { isDuplicateName } from '../labels/label-dependencies';

const duplicateName = () =>
  new InputError('Bad Request', { name: ['A reply template with this name already exists in this language'] });
const notFound = () => new NotFoundError('Reply template not found');

const templateOf = (row: ReplyTemplateRow): ReplyTemplate => ({
  uuid: row.id,
  name: row.name,
  language: row.language as DiscloserLanguage,
  body: row.body,
  updated: row.updated_at.toISOString(),
});

/**
 * The language a template is saved in: the one asked for if the company's disclosure page offers it or the staff pages
 * are in it, else a 400; none asked for, the company's default language.
 */
async function languageOf(db: Queryable, companyId: string, asked: string | undefined): Promise<string> {
  const company = await replyTemplateRepository.companyLanguages(db, companyId);
  if (!company) throw new NotFoundError('Company not found');
  if (asked === undefined) return company.default_language;
  const staffLanguage = (STAFF_LANGUAGE_CODES as readonly string[]).includes(asked);
  const offered = company.discloser_languages === null || company.discloser_languages.includes(asked);
  if (!staffLanguage && !offered)
    throw new InputError('Bad Request', { language: [REPLY_TEMPLATE_LANGUAGE_NOT_OFFERED] });
  return asked;
}

/** GET /api/account/company/reply_template/ (any staff member: the case page's reply box offers them), by language and name. */
export async function listReplyTemplates(db: Queryable, principal: StaffPrincipal): Promise<ReplyTemplate[]> {
  return (await replyTemplateRepository.ofCompany(db, principal.companyId)).map(templateOf);
}

/** POST /api/account/company/reply_template/ (ADMIN); a taken name or one past the company's limit is a 400. */
export async function createReplyTemplate(
  deps: { db: Database },
  principal: StaffPrincipal,
  input: ReplyTemplateRequest,
): Promise<ReplyTemplate> {
  return deps.db.transaction(async (tx) => {
    const language = await languageOf(tx, principal.companyId, input.language);
    if ((await replyTemplateRepository.lockAndCount(tx, principal.companyId)) >= REPLY_TEMPLATES_PER_COMPANY)
      throw new InputError('Bad Request', {
        name: [`A company keeps at most ${REPLY_TEMPLATES_PER_COMPANY} reply templates; delete one first`],
      });
    const row = await replyTemplateRepository.insert(tx, {
      id: randomUUID(),
      companyId: principal.companyId,
      name: input.name,
      body: input.body,
      language,
    });
    if (!row) throw duplicateName();
    return templateOf(row);
  });
}

/** PUT /api/account/company/reply_template/{uuid} (ADMIN): another company's template is not found. */
export async function updateReplyTemplate(
  deps: { db: Database },
  principal: StaffPrincipal,
  id: string,
  input: ReplyTemplateRequest,
): Promise<ReplyTemplate> {
  try {
    // Not asked for: the template keeps its language.
    const language = input.language && (await languageOf(deps.db, principal.companyId, input.language));
    const row = await replyTemplateRepository.update(deps.db, principal.companyId, id, {
      name: input.name,
      body: input.body,
      language,
    });
    if (!row) throw notFound();
    return templateOf(row);
  } catch (error) {
    if (isDuplicateName(error)) throw duplicateName();
    throw error;
  }
}

/** DELETE /api/account/company/reply_template/{uuid} (ADMIN). */
export async function deleteReplyTemplate(db: Queryable, principal: StaffPrincipal, id: string): Promise<void> {
  if (!(await replyTemplateRepository.delete(db, principal.companyId, id))) throw notFound();
}
