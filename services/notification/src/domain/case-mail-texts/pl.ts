import type { CaseMailTexts } from './types';

/** Polish, impersonal, the staff pages' words (docs/i18n.md): zgłoszenie, osoba zgłaszająca, termin rozwiązania sprawy. */
export const pl: CaseMailTexts = {
  new_report: { subject: 'Nowe zgłoszenie nr {n}', line: 'Wpłynęło nowe zgłoszenie (nr {n}).' },
  assigned: { subject: 'Przypisano zgłoszenie nr {n}', line: 'Do tego konta przypisano zgłoszenie nr {n}.' },
  discloser_message: {
    subject: 'Nowa wiadomość w zgłoszeniu nr {n}',
    line: 'Osoba zgłaszająca w zgłoszeniu nr {n} wysłała nową wiadomość.',
  },
  discloser_file: {
    subject: 'Nowy plik w zgłoszeniu nr {n}',
    line: 'Osoba zgłaszająca w zgłoszeniu nr {n} dodała plik.',
  },
  acknowledgement_due_soon: {
    subject: 'Zgłoszenie nr {n}: wkrótce termin potwierdzenia przyjęcia',
    line: 'Przyjęcie zgłoszenia nr {n} należy potwierdzić osobie zgłaszającej do {due} (UTC).',
  },
  acknowledgement_overdue: {
    subject: 'Zgłoszenie nr {n}: potwierdzenie przyjęcia po terminie',
    line: 'Przyjęcie zgłoszenia nr {n} należało potwierdzić do {due} (UTC), a nie zostało potwierdzone.',
  },
  feedback_due_soon: {
    subject: 'Zgłoszenie nr {n}: wkrótce termin informacji zwrotnej',
    line: 'Osoba zgłaszająca w zgłoszeniu nr {n} musi otrzymać informację zwrotną do {due} (UTC).',
  },
  feedback_overdue: {
    subject: 'Zgłoszenie nr {n}: informacja zwrotna po terminie',
    line: 'Informację zwrotną w zgłoszeniu nr {n} należało przekazać do {due} (UTC), a nie została przekazana.',
  },
  resolution_due_soon: {
    subject: 'Zgłoszenie nr {n}: wkrótce termin rozwiązania sprawy',
    line: 'Termin rozwiązania sprawy ze zgłoszenia nr {n}, ustalony przez firmę, upływa {due} (UTC).',
  },
  resolution_overdue: {
    subject: 'Zgłoszenie nr {n}: termin rozwiązania sprawy minął',
    line: 'Termin rozwiązania sprawy ze zgłoszenia nr {n}, ustalony przez firmę, upłynął {due} (UTC), a sprawa jest nadal otwarta.',
  },
  retention_due: {
    subject: 'Zgłoszenie nr {n} zostanie usunięte {due} (UTC)',
    line: 'Sprawa ze zgłoszenia nr {n} jest zamknięta, a okres przechowywania ustalony przez firmę dobiega końca: zostanie trwale usunięta wraz z wiadomościami i plikami {due} (UTC). Aby ją zachować, należy ją wcześniej ponownie otworzyć.',
  },
  open: 'Można ją otworzyć w Whistle (wymagane logowanie):',
};
