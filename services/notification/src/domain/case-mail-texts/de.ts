import type { CaseMailTexts } from './types';

/** German, Sie form, the staff pages' words (docs/i18n.md): Meldung, hinweisgebende Person, Frist für den Abschluss. */
export const de: CaseMailTexts = {
  new_report: { subject: 'Neue Meldung Nr. {n}', line: 'Eine neue Meldung (Nr. {n}) ist eingegangen.' },
  assigned: { subject: 'Meldung Nr. {n} wurde Ihnen zugewiesen', line: 'Ihnen wurde die Meldung Nr. {n} zugewiesen.' },
  discloser_message: {
    subject: 'Neue Nachricht zu Meldung Nr. {n}',
    line: 'Die hinweisgebende Person der Meldung Nr. {n} hat eine neue Nachricht gesendet.',
  },
  discloser_file: {
    subject: 'Neue Datei zu Meldung Nr. {n}',
    line: 'Die hinweisgebende Person der Meldung Nr. {n} hat eine Datei hinzugefügt.',
  },
  acknowledgement_due_soon: {
    subject: 'Meldung Nr. {n}: Eingangsbestätigung bald fällig',
    line: 'Der Eingang der Meldung Nr. {n} muss der hinweisgebenden Person bis {due} (UTC) bestätigt werden.',
  },
  acknowledgement_overdue: {
    subject: 'Meldung Nr. {n}: Eingangsbestätigung überfällig',
    line: 'Der Eingang der Meldung Nr. {n} war bis {due} (UTC) zu bestätigen und ist nicht bestätigt worden.',
  },
  feedback_due_soon: {
    subject: 'Meldung Nr. {n}: Rückmeldung bald fällig',
    line: 'Die hinweisgebende Person der Meldung Nr. {n} muss bis {due} (UTC) eine Rückmeldung erhalten.',
  },
  feedback_overdue: {
    subject: 'Meldung Nr. {n}: Rückmeldung überfällig',
    line: 'Die Rückmeldung zur Meldung Nr. {n} war bis {due} (UTC) fällig und ist nicht gegeben worden.',
  },
  resolution_due_soon: {
    subject: 'Meldung Nr. {n}: Frist für den Abschluss endet bald',
    line: 'Die Frist des Unternehmens für den Abschluss der Meldung Nr. {n} endet am {due} (UTC).',
  },
  resolution_overdue: {
    subject: 'Meldung Nr. {n}: Frist für den Abschluss überschritten',
    line: 'Die Frist des Unternehmens für den Abschluss der Meldung Nr. {n} ist am {due} (UTC) abgelaufen; der Fall ist noch offen.',
  },
  retention_due: {
    subject: 'Meldung Nr. {n} wird am {due} (UTC) gelöscht',
    line: 'Die Meldung Nr. {n} ist abgeschlossen und erreicht das Ende der Aufbewahrungsfrist des Unternehmens: Sie wird am {due} (UTC) mit ihren Nachrichten und Dateien endgültig gelöscht. Öffnen Sie den Fall vorher wieder, um ihn zu behalten.',
  },
  open: 'In Whistle öffnen (Anmeldung erforderlich):',
};
