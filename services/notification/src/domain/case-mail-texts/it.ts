import type { CaseMailTexts } from './types';

/** Italian, Lei form, the staff pages' words (docs/i18n.md): segnalazione, segnalante, termine di chiusura. */
export const it: CaseMailTexts = {
  new_report: { subject: 'Nuova segnalazione n. {n}', line: 'È stata ricevuta una nuova segnalazione (n. {n}).' },
  assigned: {
    subject: 'Le è stata assegnata la segnalazione n. {n}',
    line: 'Le è stata assegnata la segnalazione n. {n}.',
  },
  discloser_message: {
    subject: 'Nuovo messaggio sulla segnalazione n. {n}',
    line: 'Il segnalante della segnalazione n. {n} ha inviato un nuovo messaggio.',
  },
  discloser_file: {
    subject: 'Nuovo file sulla segnalazione n. {n}',
    line: 'Il segnalante della segnalazione n. {n} ha aggiunto un file.',
  },
  acknowledgement_due_soon: {
    subject: 'Segnalazione n. {n}: avviso di ricevimento in scadenza',
    line: "L'avviso di ricevimento della segnalazione n. {n} va inviato al segnalante entro il {due} (UTC).",
  },
  acknowledgement_overdue: {
    subject: 'Segnalazione n. {n}: avviso di ricevimento scaduto',
    line: "L'avviso di ricevimento della segnalazione n. {n} andava inviato entro il {due} (UTC) e non è stato inviato.",
  },
  feedback_due_soon: {
    subject: 'Segnalazione n. {n}: riscontro in scadenza',
    line: 'Il segnalante della segnalazione n. {n} deve ricevere un riscontro entro il {due} (UTC).',
  },
  feedback_overdue: {
    subject: 'Segnalazione n. {n}: riscontro scaduto',
    line: 'Il riscontro sulla segnalazione n. {n} era dovuto entro il {due} (UTC) e non è stato dato.',
  },
  resolution_due_soon: {
    subject: 'Segnalazione n. {n}: termine di chiusura vicino',
    line: "La segnalazione n. {n} raggiunge il termine di chiusura dell'azienda il {due} (UTC).",
  },
  resolution_overdue: {
    subject: 'Segnalazione n. {n}: termine di chiusura superato',
    line: "La segnalazione n. {n} ha superato il termine di chiusura dell'azienda il {due} (UTC) ed è ancora aperta.",
  },
  retention_due: {
    subject: 'La segnalazione n. {n} sarà eliminata il {due} (UTC)',
    line: "La segnalazione n. {n} è chiusa e giunge al termine del periodo di conservazione dell'azienda: sarà eliminata definitivamente, con i suoi messaggi e file, il {due} (UTC). La riapra prima di allora per conservarla.",
  },
  open: 'La apra in Whistle (accesso richiesto):',
};
