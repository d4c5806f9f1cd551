import { useTranslation } from 'react-i18next';
import { listReplyTemplates } from '@whistle/api-client';
import { SelectField, useLoad } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

/** The reply's text with a template's put in: after what is written, on a new paragraph. */
export function withTemplate(text: string, template: string): string {
  if (!text.trim()) return template;
  return `${text.replace(/\s+$/, '')}\n\n${template}`;
}

/**
 * The company's reply templates (issue 23 item 4, kept by the auth service, managed in settings by admins): choosing
 * one puts its text into the reply being written, which is then encrypted like any reply. Nothing when the company
 * has none, or they cannot be loaded (the reply is written by hand).
 */
export function ReplyTemplatePicker({ text, onInsert }: { text: string; onInsert: (text: string) => void }) {
  const { t } = useTranslation('incidents');
  const { api } = useStaffSession();
  const { data: templates } = useLoad((signal) => listReplyTemplates(api, signal), [api], { shows: () => true });
  if (!templates || templates.length === 0) return null;
  return (
    <SelectField
      name="reply_template"
      label={t('thread.template')}
      placeholder={t('thread.templateChoose')}
      value=""
      options={templates.map((template) => ({ value: template.uuid, label: template.name }))}
      onChange={(event) => {
        const chosen = templates.find((template) => template.uuid === event.target.value);
        if (chosen) onInsert(withTemplate(text, chosen.body));
      }}
    />
  );
}
