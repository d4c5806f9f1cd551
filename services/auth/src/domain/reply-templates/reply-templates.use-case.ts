import { randomUUID } from 'node:crypto';
import { REPLY_TEMPLATES_PER_COMPANY, type ReplyTemplate, type ReplyTemplateRequest } from '@whistle/contracts';
import { InputError, NotFoundError, type Database, type Queryable } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { replyTemplateRepository, type ReplyTemplateRow } from '../../data-access/reply-template.repository';
import { isDuplicateName } from '../labels/label-dependencies';

const duplicateName = () => new InputError('Bad Request', { name: ['A reply template with this name already exists'] });
const notFound = () => new NotFoundError('Reply template not found');

const templateOf = (row: ReplyTemplateRow): ReplyTemplate => ({
  uuid: row.id,
  name: row.name,
  body: row.body,
  updated: row.updated_at.toISOString(),
});

/** GET /api/account/company/reply_template/ (any staff member: the case page's reply box offers them), by name. */
export async function listReplyTemplates(db: Queryable, principal: StaffPrincipal): Promise<ReplyTemplate[]> {
  return (await replyTemplateRepository.ofCompany(db, principal.companyId)).map(templateOf);
}

/** POST /api/account/company/reply_template/ (ADMIN); a taken name or one past the company's limit is a 400. */
export async function createReplyTemplate(
  deps: { db: Database },
  principal: StaffPrincipal,
  input: { name: string; body: string },
): Promise<ReplyTemplate> {
  return deps.db.transaction(async (tx) => {
    if ((await replyTemplateRepository.lockAndCount(tx, principal.companyId)) >= REPLY_TEMPLATES_PER_COMPANY)
      throw new InputError('Bad Request', {
        name: [`A company keeps at most ${REPLY_TEMPLATES_PER_COMPANY} reply templates; delete one first`],
      });
    const row = await replyTemplateRepository.insert(tx, {
      id: randomUUID(),
      companyId: principal.companyId,
      ...input,
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
    const row = await replyTemplateRepository.update(deps.db, principal.companyId, id, input);
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
