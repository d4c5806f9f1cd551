import { staffLanguageOrEnglish, type EventPayload } from '@whistle/contracts';
import type { MailMessage } from '@whistle/mailer';
import { WELCOME_MAIL_TEXTS } from './welcome-mail-texts';

/**
 * The e-mail the first admin gets: the employees' link and the sign-in link, in the language of the page the company
 * signed up on (company.created v2; v1 carries none: English). Ids and names only.
 */
export function welcomeMail(
  company: EventPayload<'company.created'> | EventPayload<'company.created', 2>,
  publicUrl: string,
): MailMessage {
  const discloseLink = new URL(`/disclose/${company.url_identifier}`, publicUrl).toString();
  const loginLink = new URL('/company/login', publicUrl).toString();
  const language = 'language' in company.created_by ? company.created_by.language : undefined;
  const texts = WELCOME_MAIL_TEXTS[staffLanguageOrEnglish(language)];
  return {
    to: company.created_by.email,
    subject: texts.subject(company.name),
    text: [
      texts.hello,
      '',
      texts.ready(company.name),
      '',
      texts.share,
      discloseLink,
      '',
      texts.signIn,
      loginLink,
      '',
      'Whistle',
    ].join('\n'),
  };
}
