import { STAFF_MAIL_LANGUAGES, caseMail, type CaseMailEvent } from './case-mails';

const EVENTS: CaseMailEvent[] = [
  'new_report',
  'assigned',
  'discloser_message',
  'discloser_file',
  'acknowledgement_due_soon',
  'acknowledgement_overdue',
  'feedback_due_soon',
  'feedback_overdue',
  'resolution_due_soon',
  'resolution_overdue',
  'retention_due',
];
const incident = {
  incidentId: '6f1c2a9e-4b1d-4c55-9a0e-1f7d2b3c4d5e',
  number: 4711,
  dueAt: '2026-03-09T08:30:00.000Z',
};
const mail = (language: string, event: CaseMailEvent) =>
  caseMail({ email: 'handler@acme.test', language }, event, incident, 'https://whistle.test');

describe('caseMail in the staff languages', () => {
  test.each(STAFF_MAIL_LANGUAGES.filter((language) => language !== 'en'))(
    'when the recipient reads %s, then every case mail is in it: its own subject and line, the number, the due date and the link',
    (language) => {
      for (const event of EVENTS) {
        const english = mail('en', event);
        const translated = mail(language, event);
        expect({ event, subject: translated.subject === english.subject }).toEqual({ event, subject: false });
        expect(translated.subject).toContain('4711');
        expect(translated.text).toContain('4711');
        if (event.includes('due') || event.includes('overdue'))
          expect({ event, due: translated.text.includes('2026-03-09 08:30 (UTC)') }).toEqual({ event, due: true });
        // No placeholder left unfilled, the case's link, nothing but ids in it.
        expect(`${translated.subject}${translated.text}`).not.toMatch(/\{\w+\}/);
        expect(translated.text).toContain(`https://whistle.test/company/incidents/${incident.incidentId}`);
        expect(translated.text.split('\n')[0]).not.toBe(english.text.split('\n')[0]);
      }
    },
  );

  test('when the recipient reads German, then a due acknowledgement reads as written', () => {
    expect(mail('de', 'acknowledgement_due_soon')).toEqual({
      to: 'handler@acme.test',
      subject: 'Meldung Nr. 4711: Eingangsbestätigung bald fällig',
      text: [
        'Der Eingang der Meldung Nr. 4711 muss der hinweisgebenden Person bis 2026-03-09 08:30 (UTC) bestätigt werden.',
        '',
        'In Whistle öffnen (Anmeldung erforderlich):',
        `https://whistle.test/company/incidents/${incident.incidentId}`,
        '',
        'Whistle',
      ].join('\n'),
    });
  });

  test('when the recipient has a language no mail is written in, then the mail is in English', () => {
    expect(mail('ar', 'new_report').subject).toBe('New report #4711');
    expect(mail('', 'new_report').subject).toBe('New report #4711');
  });
});
