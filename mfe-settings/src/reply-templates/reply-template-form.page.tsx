import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { createReplyTemplate, fieldErrorsOf, listReplyTemplates, updateReplyTemplate } from '@whistle/api-client';
import {
  REPLY_TEMPLATE_BODY_MAX,
  REPLY_TEMPLATE_NAME_MAX,
  STAFF_LANGUAGE_CODES,
  type DiscloserLanguage,
} from '@whistle/contracts';
import {
  Button,
  LANGUAGE_NAMES,
  SelectField,
  Spinner,
  TextArea,
  TextField,
  useAction,
  useDocumentTitle,
  useLoad,
} from '@whistle/ui';
import { type PageToastState, useStaffSession, useStaffState } from '@whistle/ui/staff';
import { REPLY_TEMPLATES_PATH } from './reply-templates.page';

interface FormErrors {
  name?: string;
  body?: string;
  language?: string;
}

/**
 * The languages a template may be in: the company's default first, the others its disclosure page offers, then the
 * staff languages it does not (the server accepts these and no other).
 */
export function templateLanguages(languages: { offered: readonly string[]; default: string }): DiscloserLanguage[] {
  const offered = languages.offered.filter((language) => language !== languages.default);
  const staff = STAFF_LANGUAGE_CODES.filter(
    (language) => language !== languages.default && !offered.includes(language),
  );
  return [languages.default, ...offered, ...staff] as DiscloserLanguage[];
}

/**
 * /company/settings/reply-templates/add and …/edit/{templateUUID} (ADMIN): a template's name and text (both required)
 * and its language (the company's default to begin with); an edit may rename it or move it to another language.
 */
export function ReplyTemplateFormPage() {
  const { t } = useTranslation(['settings', 'common']);
  const { templateUuid } = useParams();
  const session = useStaffSession();
  const navigate = useNavigate();
  const staff = useStaffState();
  const { data: templates } = useLoad((signal) => listReplyTemplates(session.api, signal), [session]);
  const [errors, setErrors] = useState<FormErrors>({});
  const save = useAction();
  const title = templateUuid ? t('replyTemplateForm.editTitle') : t('replyTemplateForm.addTitle');
  useDocumentTitle(title);
  if ((templateUuid && !templates) || !staff) return <Spinner />;
  const languages = templateLanguages(staff.company.languages);
  const editing = templateUuid ? templates?.find((template) => template.uuid === templateUuid) : undefined;
  if (templateUuid && !editing)
    return (
      <>
        <h1>{title}</h1>
        <p className="wh-alert" role="alert">
          {t('replyTemplateForm.notFound')}
        </p>
        <Link to={REPLY_TEMPLATES_PATH}>{t('replyTemplateForm.back')}</Link>
      </>
    );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const body = String(form.get('body') ?? '');
    const language = String(form.get('language') ?? '') as DiscloserLanguage;
    const tooLong = (max: number) => t('replyTemplateForm.tooLong', { max });
    const found: FormErrors = {
      name: !name
        ? t('common:validation.required')
        : name.length > REPLY_TEMPLATE_NAME_MAX
          ? tooLong(REPLY_TEMPLATE_NAME_MAX)
          : undefined,
      body: !body.trim()
        ? t('common:validation.required')
        : body.length > REPLY_TEMPLATE_BODY_MAX
          ? tooLong(REPLY_TEMPLATE_BODY_MAX)
          : undefined,
    };
    setErrors(found);
    if (found.name || found.body) return;
    await save.run(
      async () => {
        if (templateUuid) await updateReplyTemplate(session.api, templateUuid, { name, body, language });
        else await createReplyTemplate(session.api, { name, body, language });
        const toast: PageToastState = {
          toast: templateUuid ? t('replyTemplates.edited') : t('replyTemplates.added'),
        };
        await navigate(REPLY_TEMPLATES_PATH, { state: toast });
      },
      {
        recover: (error) => {
          const refused = fieldErrorsOf(error);
          if (refused)
            setErrors({
              name: refused.name && t('replyTemplateForm.refusedName'),
              body: refused.body && t('replyTemplateForm.refusedBody'),
              language: refused.language && t('replyTemplateForm.refusedLanguage'),
            });
          return Boolean(refused);
        },
        leaves: true,
      },
    );
  }

  return (
    <>
      <h1>{title}</h1>
      <p className="wh-alert">{t('replyTemplates.noCaseDetails')}</p>
      <form
        className="wh-card wh-stack"
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-busy={save.busy || undefined}
      >
        <TextField
          name="name"
          label={t('replyTemplates.name')}
          defaultValue={editing?.name}
          required
          error={errors.name}
        />
        <SelectField
          name="language"
          label={t('replyTemplates.language')}
          defaultValue={editing?.language ?? languages[0]}
          options={languages.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
          error={errors.language}
        />
        <TextArea
          name="body"
          label={t('replyTemplates.body')}
          defaultValue={editing?.body}
          rows={8}
          required
          error={errors.body}
        />
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
            {t('actions.save')}
          </Button>
          <Link className="wh-button wh-button--secondary" to={REPLY_TEMPLATES_PATH}>
            {t('actions.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}
