import { addMonthsUtc, discloserClocks } from './case-clocks';

describe('the reporter’s clocks, computed as the incident service does', () => {
  it('when months are added, then the day is kept, or the last day of a shorter month (PostgreSQL intervals)', () => {
    expect(addMonthsUtc(new Date('2026-03-11T10:00:00.000Z'), 3).toISOString()).toBe('2026-06-11T10:00:00.000Z');
    expect(addMonthsUtc(new Date('2026-11-30T23:30:00.000Z'), 3).toISOString()).toBe('2027-02-28T23:30:00.000Z');
    expect(addMonthsUtc(new Date('2027-11-30T00:00:00.000Z'), 3).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('when the report is new, then acknowledgement is due on day 7 and feedback 3 months later, late once past', () => {
    const incident = { created: '2026-11-23T23:30:00.000Z', status: { name: 'NEW' as const } };
    expect(discloserClocks(incident, [], new Date('2026-11-24T00:00:00.000Z'))).toEqual({
      received: new Date('2026-11-23T23:30:00.000Z'),
      acknowledgement: { state: 'due', dueAt: new Date('2026-11-30T23:30:00.000Z') },
      feedback: { state: 'due', dueAt: new Date('2027-02-28T23:30:00.000Z') },
    });
    expect(discloserClocks(incident, undefined, new Date('2027-03-01T00:00:00.000Z'))).toMatchObject({
      acknowledgement: { state: 'late' },
      feedback: { state: 'late' },
    });
  });
});
