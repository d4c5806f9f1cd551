import type { MailMessage } from '@whistle/mailer';
import { de } from './case-mail-texts/de';
import { es } from './case-mail-texts/es';
import { it } from './case-mail-texts/it';
import { nl } from './case-mail-texts/nl';
import { pl } from './case-mail-texts/pl';
import { pt } from './case-mail-texts/pt';
import type { CaseMailTexts } from './case-mail-texts/types';

export type CaseMailEvent =
  | 'new_report'
  | 'assigned'
  | 'discloser_message'
  | 'discloser_file'
  | `${'acknowledgement' | 'feedback' | 'resolution'}_${'due_soon' | 'overdue'}`
  | 'retention_due';

/**
 * The mails about a case, in the recipient's language (one of the staff pages' eight). They carry the report number, what happened and a
 * link to the case: never a field, a message, a name or a file name (the server has none of them in clear).
 */
const texts: Record<StaffMailLanguage, CaseMailTexts> = {
  en: {
    new_report: { subject: 'New report #{n}', line: 'A new report (#{n}) has been received.' },
    assigned: { subject: 'Report #{n} was assigned to you', line: 'You have been assigned report #{n}.' },
    discloser_message: {
      subject: 'New message on report #{n}',
      line: 'The person who made report #{n} sent a new message.',
    },
    discloser_file: { subject: 'New file on report #{n}', line: 'The person who made report #{n} added a file.' },
    acknowledgement_due_soon: {
      subject: 'Report #{n}: acknowledgement due soon',
      line: 'The receipt of report #{n} must be acknowledged to the person who made it by {due} (UTC).',
    },
    acknowledgement_overdue: {
      subject: 'Report #{n}: acknowledgement overdue',
      line: 'The receipt of report #{n} was due to be acknowledged by {due} (UTC) and has not been.',
    },
    feedback_due_soon: {
      subject: 'Report #{n}: feedback due soon',
      line: 'The person who made report #{n} must be given feedback by {due} (UTC).',
    },
    feedback_overdue: {
      subject: 'Report #{n}: feedback overdue',
      line: 'Feedback on report #{n} was due by {due} (UTC) and has not been given.',
    },
    resolution_due_soon: {
      subject: 'Report #{n}: resolution deadline soon',
      line: "Report #{n} reaches the company's resolution deadline on {due} (UTC).",
    },
    resolution_overdue: {
      subject: 'Report #{n}: resolution deadline passed',
      line: "Report #{n} passed the company's resolution deadline on {due} (UTC) and is still open.",
    },
    retention_due: {
      subject: 'Report #{n} will be deleted on {due} (UTC)',
      line: "Report #{n} was closed and reaches the end of the company's retention period: it will be deleted for good, with its messages and files, on {due} (UTC). Reopen it before then to keep it.",
    },
    open: 'Open it in Whistle (sign-in required):',
  },
  fr: {
    new_report: { subject: 'Nouveau signalement n° {n}', line: 'Un nouveau signalement (n° {n}) a été reçu.' },
    assigned: {
      subject: 'Le signalement n° {n} vous a été attribué',
      line: 'Le signalement n° {n} vous a été attribué.',
    },
    discloser_message: {
      subject: 'Nouveau message sur le signalement n° {n}',
      line: "L'auteur du signalement n° {n} a envoyé un nouveau message.",
    },
    discloser_file: {
      subject: 'Nouveau fichier sur le signalement n° {n}',
      line: "L'auteur du signalement n° {n} a ajouté un fichier.",
    },
    acknowledgement_due_soon: {
      subject: 'Signalement n° {n} : accusé de réception à envoyer bientôt',
      line: "La réception du signalement n° {n} doit être confirmée à son auteur d'ici le {due} (UTC).",
    },
    acknowledgement_overdue: {
      subject: 'Signalement n° {n} : accusé de réception en retard',
      line: "La réception du signalement n° {n} devait être confirmée d'ici le {due} (UTC) et ne l'a pas été.",
    },
    feedback_due_soon: {
      subject: 'Signalement n° {n} : retour à donner bientôt',
      line: "L'auteur du signalement n° {n} doit recevoir un retour d'ici le {due} (UTC).",
    },
    feedback_overdue: {
      subject: 'Signalement n° {n} : retour en retard',
      line: "Le retour sur le signalement n° {n} était dû le {due} (UTC) et n'a pas été donné.",
    },
    resolution_due_soon: {
      subject: 'Signalement n° {n} : délai de traitement bientôt atteint',
      line: "Le signalement n° {n} atteint le délai de traitement de l'entreprise le {due} (UTC).",
    },
    resolution_overdue: {
      subject: 'Signalement n° {n} : délai de traitement dépassé',
      line: "Le signalement n° {n} a dépassé le délai de traitement de l'entreprise le {due} (UTC) et reste ouvert.",
    },
    retention_due: {
      subject: 'Le signalement n° {n} sera supprimé le {due} (UTC)',
      line: "Le signalement n° {n} est clos et arrive au terme de la durée de conservation de l'entreprise : il sera définitivement supprimé, avec ses messages et ses fichiers, le {due} (UTC). Rouvrez-le d'ici là pour le conserver.",
    },
    open: 'Ouvrez-le dans Whistle (connexion requise) :',
  },
  de,
  es,
  it,
  nl,
  pl,
  pt,
};

/** The languages of the staff pages, which the mails are written in too; another language gets English. */
export const STAFF_MAIL_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pl', 'pt'] as const;
export type StaffMailLanguage = (typeof STAFF_MAIL_LANGUAGES)[number];
export const staffMailLanguage = (language: string | undefined): StaffMailLanguage =>
  STAFF_MAIL_LANGUAGES.find((each) => each === language) ?? 'en';

/** A due time as the mails print it: `YYYY-MM-DD HH:MM`, UTC (the mail cannot know the reader's zone). */
const printedDue = (dueAt: string) => dueAt.slice(0, 16).replace('T', ' ');

export function caseMail(
  to: { email: string; language: string },
  event: CaseMailEvent,
  incident: { incidentId: string; number: number; dueAt?: string },
  publicUrl: string,
): MailMessage {
  const language = staffMailLanguage(to.language);
  const { subject, line } = texts[language][event];
  const fill = (text: string) =>
    text.replace('{n}', String(incident.number)).replace('{due}', incident.dueAt ? printedDue(incident.dueAt) : '');
  const link = new URL(`/company/incidents/${incident.incidentId}`, publicUrl).toString();
  return {
    to: to.email,
    subject: fill(subject),
    text: [fill(line), '', texts[language].open, link, '', 'Whistle'].join('\n'),
  };
}
