import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { listReplyTemplates } from '@whistle/api-client';
import type { ReplyTemplate } from '@whistle/contracts';
import { LANGUAGE_NAMES, useLoad, type Language } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/** The reply's text with a template's put in: after what is written, on a new paragraph. */
export function withTemplate(text: string, template: string): string {
  if (!text.trim()) return template;
  return `${text.replace(/\s+$/, '')}\n\n${template}`;
}

/**
 * The language the reporter's page was in, as their report says (an encrypted field since it exists): none for a
 * report from before, a report staff recorded, or one whose field does not open.
 */
export function reporterLanguageOf(opened: Pick<OpenedCase, 'fields' | 'unverifiableFields'>): string | undefined {
  return opened.unverifiableFields.has('language') ? undefined : opened.fields.language || undefined;
}

/**
 * The templates by language: `first` first (the reporter's language, else the company's default), then the others
 * by their names; each group in the server's order (by name).
 */
export function templatesByLanguage(
  templates: readonly ReplyTemplate[],
  first: string | undefined,
): { language: string; templates: ReplyTemplate[] }[] {
  const groups = new Map<string, ReplyTemplate[]>();
  for (const template of templates) groups.set(template.language, [...(groups.get(template.language) ?? []), template]);
  const name = (language: string) => LANGUAGE_NAMES[language as Language] ?? language;
  return [...groups.entries()]
    .sort(([a], [b]) => (a === first ? -1 : b === first ? 1 : name(a).localeCompare(name(b))))
    .map(([language, grouped]) => ({ language, templates: grouped }));
}

/**
 * The company's reply templates (issue 23 item 4, kept by the auth service, managed in settings by admins), grouped
 * by language: choosing one puts its text into the reply being written, which is then encrypted like any reply.
 * Nothing when the company has none, or they cannot be loaded (the reply is written by hand).
 */
export function ReplyTemplatePicker({
  text,
  onInsert,
  reporterLanguage,
}: {
  text: string;
  onInsert: (text: string) => void;
  /** Its templates come first: the reporter is answered in the language they wrote in. */
  reporterLanguage?: string;
}) {
  const { t } = useTranslation('incidents');
  const { api } = useStaffSession();
  const staff = useStaffState();
  const id = useId();
  const { data: templates } = useLoad((signal) => listReplyTemplates(api, signal), [api], { shows: () => true });
  if (!templates || templates.length === 0) return null;
  const groups = templatesByLanguage(templates, reporterLanguage ?? staff?.company.languages.default);
  return (
    <div className="wh-field">
      <label className="wh-field__label" htmlFor={id}>
        {t('thread.template')}
      </label>
      <select
        id={id}
        name="reply_template"
        className="wh-input"
        value=""
        onChange={(event) => {
          const chosen = templates.find((template) => template.uuid === event.target.value);
          if (chosen) onInsert(withTemplate(text, chosen.body));
        }}
      >
        <option value="">{t('thread.templateChoose')}</option>
        {groups.map((group) => (
          <optgroup key={group.language} label={LANGUAGE_NAMES[group.language as Language] ?? group.language}>
            {group.templates.map((template) => (
              <option key={template.uuid} value={template.uuid} lang={template.language}>
                {template.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}
