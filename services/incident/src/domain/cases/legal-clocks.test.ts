import {
  ACKNOWLEDGEMENT_DAYS,
  FEEDBACK_MONTHS,
  incidentStatusSchema,
  incidentStatusTransitions,
} from '@whistle/contracts';
import {
  ACKNOWLEDGEMENT_PERIOD,
  DIRECTIVE_CLOCKS_AT_RECEIPT,
  FEEDBACK_PERIOD,
  clockChangeOf,
  clockEffectsOfStatus,
  clocksOf,
  resolutionPeriod,
  type ClockTimes,
} from './legal-clocks';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2025-03-10T12:00:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
const RESOLUTION_DAYS = 30;

/** A case received a day ago whose clocks all run. */
const running: ClockTimes = {
  status: 'NEW',
  acknowledgement_due_at: at(6 * DAY),
  feedback_due_at: at(80 * DAY),
  resolution_due_at: at(29 * DAY),
  acknowledged_at: null,
  feedback_at: null,
  closed_at: null,
};

describe('the clocks’ lengths', () => {
  test('the directive’s come from the contracts’ constants', () => {
    expect(ACKNOWLEDGEMENT_PERIOD).toEqual({ months: 0, days: ACKNOWLEDGEMENT_DAYS });
    expect(FEEDBACK_PERIOD).toEqual({ months: FEEDBACK_MONTHS, days: 0 });
    expect(DIRECTIVE_CLOCKS_AT_RECEIPT).toEqual({
      acknowledgement: ACKNOWLEDGEMENT_PERIOD,
      feedbackAfterAcknowledgementDue: FEEDBACK_PERIOD,
    });
  });

  test('the resolution clock runs the company’s deadline in days', () => {
    expect(resolutionPeriod(RESOLUTION_DAYS)).toEqual({ months: 0, days: RESOLUTION_DAYS });
  });
});

describe('clockEffectsOfStatus', () => {
  test('says what moving to each status does to each clock', () => {
    expect(clockEffectsOfStatus).toEqual({
      NEW: {},
      ACKNOWLEDGED: { acknowledgement: 'stop', feedback: 'restart' },
      ASSESSMENT: {},
      INVESTIGATION: {},
      CLOSED: { acknowledgement: 'stop', resolution: 'stop' },
      REOPENED: { acknowledgement: 'resume', resolution: 'restart' },
    });
  });

  test('no status change stops the feedback clock: only a message marked as feedback does', () => {
    for (const status of incidentStatusSchema.options) expect(clockEffectsOfStatus[status].feedback).not.toBe('stop');
  });

  test('a case is never moved back to NEW, so NEW has nothing to do', () => {
    const targets = Object.values(incidentStatusTransitions).flat();
    expect(targets).not.toContain('NEW');
  });
});

describe('clockChangeOf', () => {
  test('when a case is acknowledged, then acknowledged_at is stamped and feedback is due its months from now', () => {
    expect(clockChangeOf('ACKNOWLEDGED', RESOLUTION_DAYS)).toEqual({
      acknowledges: true,
      closes: false,
      reopens: false,
      feedbackDueIn: FEEDBACK_PERIOD,
      resolutionDueIn: null,
    });
  });

  test('when a case is closed, then closed_at is stamped (it stops acknowledgement and resolution)', () => {
    expect(clockChangeOf('CLOSED', RESOLUTION_DAYS)).toEqual({
      acknowledges: false,
      closes: true,
      reopens: false,
      feedbackDueIn: null,
      resolutionDueIn: null,
    });
  });

  test('when a case is reopened, then closed_at is cleared and resolution is due the company’s days from now', () => {
    expect(clockChangeOf('REOPENED', RESOLUTION_DAYS)).toEqual({
      acknowledges: false,
      closes: false,
      reopens: true,
      feedbackDueIn: null,
      resolutionDueIn: resolutionPeriod(RESOLUTION_DAYS),
    });
  });

  test.each(['ASSESSMENT', 'INVESTIGATION'] as const)('when a case moves to %s, then no clock changes', (status) => {
    expect(clockChangeOf(status, RESOLUTION_DAYS)).toEqual({
      acknowledges: false,
      closes: false,
      reopens: false,
      feedbackDueIn: null,
      resolutionDueIn: null,
    });
  });
});

describe('clocksOf', () => {
  const states = (times: ClockTimes) => {
    const clocks = clocksOf(times, now);
    return [clocks.acknowledgement.state, clocks.feedback.state, clocks.resolution.state];
  };

  test('when the case is acknowledged, then only the acknowledgement clock is done', () => {
    expect(states({ ...running, status: 'ACKNOWLEDGED', acknowledged_at: at(-DAY) })).toEqual(['done', 'due', 'due']);
  });

  test('when the case is closed, then acknowledgement and resolution are done and feedback runs on', () => {
    expect(states({ ...running, status: 'CLOSED', closed_at: at(-DAY) })).toEqual(['done', 'due', 'done']);
  });

  test('when a case never acknowledged is reopened after its due time, then its acknowledgement is overdue', () => {
    const reopened = { ...running, status: 'REOPENED', acknowledgement_due_at: at(-DAY), closed_at: null };
    expect(states(reopened)).toEqual(['overdue', 'due', 'due']);
  });

  test('when a message marked as feedback reached the reporter, then the feedback clock is done', () => {
    expect(states({ ...running, feedback_at: at(-DAY) })).toEqual(['due', 'done', 'due']);
  });
});
