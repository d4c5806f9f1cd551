import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteReplyTemplate, listReplyTemplates } from '@whistle/api-client';
import type { ReplyTemplate } from '@whistle/contracts';
import { ConfirmDialog, LANGUAGE_NAMES, Spinner, TableScroll, useAction, useDocumentTitle, useLoad } from '@whistle/ui';
import { usePageToast, useStaffSession } from '@whistle/ui/staff';
import { RowMenu } from '../labels/row-menu.component';

export const REPLY_TEMPLATES_PATH = '/company/settings/reply-templates';

/**
 * /company/settings/reply-templates (ADMIN, issue 23 item 4): the company's reply templates, which staff insert into a
 * reply on a case page. Company configuration kept in clear, so the page says they must not hold a case's details.
 */
export function ReplyTemplatesPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const { data: templates, reload } = useLoad((signal) => listReplyTemplates(session.api, signal), [session]);
  const { toast, show } = usePageToast(t('dismiss'));
  const action = useAction();
  const [deleting, setDeleting] = useState<ReplyTemplate>();
  useDocumentTitle(t('replyTemplates.title'));

  const remove = (template: ReplyTemplate) => {
    setDeleting(undefined);
    void action.run(
      async () => {
        await deleteReplyTemplate(session.api, template.uuid);
        await reload();
        show(t('replyTemplates.deleted'));
      },
      { key: template.uuid },
    );
  };

  return (
    <>
      <h1>{t('replyTemplates.title')}</h1>
      <p>{t('replyTemplates.intro')}</p>
      <p className="wh-alert">{t('replyTemplates.noCaseDetails')}</p>
      <div className="wh-actions">
        <Link className="wh-button wh-button--primary" to={`${REPLY_TEMPLATES_PATH}/add`}>
          {t('replyTemplates.add')}
        </Link>
      </div>
      {!templates && <Spinner />}
      {templates && templates.length === 0 && <p>{t('replyTemplates.none')}</p>}
      {templates && templates.length > 0 && (
        <TableScroll label={t('replyTemplates.title')}>
          <table className="settings-table">
            <caption className="wh-visually-hidden">{t('replyTemplates.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('replyTemplates.name')}</th>
                <th scope="col">{t('replyTemplates.language')}</th>
                <th scope="col">{t('replyTemplates.body')}</th>
                <th scope="col">{t('labels.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {templates.map((template) => (
                <tr key={template.uuid}>
                  <th scope="row">{template.name}</th>
                  <td lang={template.language}>{LANGUAGE_NAMES[template.language]}</td>
                  <td className="settings-template-body" lang={template.language}>
                    {template.body}
                  </td>
                  <td>
                    <RowMenu
                      name={template.name}
                      editTo={`${REPLY_TEMPLATES_PATH}/edit/${template.uuid}`}
                      busy={action.isBusy(template.uuid)}
                      onDelete={() => setDeleting(template)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('replyTemplates.deleteTitle', { name: deleting?.name ?? '' })}
        confirmLabel={t('actions.delete')}
        cancelLabel={t('actions.cancel')}
        danger
        onConfirm={() => deleting && remove(deleting)}
        onCancel={() => setDeleting(undefined)}
      >
        <p>{t('labels.deleteWarning')}</p>
      </ConfirmDialog>
      {toast}
    </>
  );
}
