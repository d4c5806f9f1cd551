import type { CaseMailTexts } from './types';

/** Dutch, formal "u", the staff pages' words (docs/i18n.md): melding, melder, afhandelingstermijn, organisatie. */
export const nl: CaseMailTexts = {
  new_report: { subject: 'Nieuwe melding nr. {n}', line: 'Er is een nieuwe melding (nr. {n}) ontvangen.' },
  assigned: { subject: 'Melding nr. {n} is aan u toegewezen', line: 'Melding nr. {n} is aan u toegewezen.' },
  discloser_message: {
    subject: 'Nieuw bericht bij melding nr. {n}',
    line: 'De melder van melding nr. {n} heeft een nieuw bericht gestuurd.',
  },
  discloser_file: {
    subject: 'Nieuw bestand bij melding nr. {n}',
    line: 'De melder van melding nr. {n} heeft een bestand toegevoegd.',
  },
  acknowledgement_due_soon: {
    subject: 'Melding nr. {n}: ontvangstbevestiging binnenkort verschuldigd',
    line: 'De ontvangst van melding nr. {n} moet uiterlijk {due} (UTC) aan de melder worden bevestigd.',
  },
  acknowledgement_overdue: {
    subject: 'Melding nr. {n}: termijn ontvangstbevestiging verstreken',
    line: 'De ontvangst van melding nr. {n} had uiterlijk {due} (UTC) bevestigd moeten worden en is niet bevestigd.',
  },
  feedback_due_soon: {
    subject: 'Melding nr. {n}: terugkoppeling binnenkort verschuldigd',
    line: 'De melder van melding nr. {n} moet uiterlijk {due} (UTC) terugkoppeling krijgen.',
  },
  feedback_overdue: {
    subject: 'Melding nr. {n}: termijn terugkoppeling verstreken',
    line: 'De terugkoppeling op melding nr. {n} was uiterlijk {due} (UTC) verschuldigd en is niet gegeven.',
  },
  resolution_due_soon: {
    subject: 'Melding nr. {n}: afhandelingstermijn loopt binnenkort af',
    line: 'Melding nr. {n} bereikt op {due} (UTC) de afhandelingstermijn van de organisatie.',
  },
  resolution_overdue: {
    subject: 'Melding nr. {n}: afhandelingstermijn verstreken',
    line: 'Melding nr. {n} heeft op {due} (UTC) de afhandelingstermijn van de organisatie overschreden en is nog open.',
  },
  retention_due: {
    subject: 'Melding nr. {n} wordt op {due} (UTC) verwijderd',
    line: 'Melding nr. {n} is afgesloten en bereikt het einde van de bewaartermijn van de organisatie: de zaak wordt op {due} (UTC) definitief verwijderd, met haar berichten en bestanden. Heropen de zaak vóór die datum om haar te bewaren.',
  },
  open: 'Open de zaak in Whistle (aanmelden vereist):',
};
