import { planReminders } from './deadline-reminders';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const WINDOW = 2 * DAY;
const now = new Date('2025-03-10T12:00:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

/** A case whose clocks all run, far from due unless a test moves one. */
const running = {
  status: 'NEW',
  acknowledgement_due_at: at(7 * DAY),
  feedback_due_at: at(90 * DAY),
  resolution_due_at: at(14 * DAY),
  acknowledged_at: null,
  feedback_at: null,
  closed_at: null,
};

describe('planReminders', () => {
  test('when no clock is within its window, then nothing is due and the next check is the earliest window start', () => {
    expect(planReminders(running, now, WINDOW)).toEqual({ reminders: [], nextCheckAt: at(5 * DAY) });
  });

  test('when a clock is within its window, then it is due soon and checked again when it falls due', () => {
    const plan = planReminders({ ...running, acknowledgement_due_at: at(DAY) }, now, WINDOW);
    expect(plan).toEqual({
      reminders: [{ clock: 'acknowledgement', state: 'due_soon', dueAt: at(DAY) }],
      nextCheckAt: at(DAY),
    });
  });

  test('when a clock is past due, then it is overdue only (no late due_soon) and asks for no further check', () => {
    const plan = planReminders(
      { ...running, acknowledgement_due_at: at(-HOUR), resolution_due_at: at(-DAY), feedback_due_at: at(-DAY) },
      now,
      WINDOW,
    );
    expect(plan.reminders.map((each) => `${each.clock} ${each.state}`)).toEqual([
      'acknowledgement overdue',
      'feedback overdue',
      'resolution overdue',
    ]);
    expect(plan.nextCheckAt).toBeNull();
  });

  test('when a clock is stopped, then it reminds of nothing, however late', () => {
    const plan = planReminders(
      { ...running, status: 'ACKNOWLEDGED', acknowledged_at: at(-DAY), acknowledgement_due_at: at(-HOUR) },
      now,
      WINDOW,
    );
    expect(plan.reminders).toEqual([]);
  });

  test('when the case is closed, then no clock reminds and none is checked again', () => {
    const plan = planReminders(
      { ...running, status: 'CLOSED', closed_at: at(-DAY), acknowledgement_due_at: at(-HOUR) },
      now,
      WINDOW,
    );
    expect(plan).toEqual({ reminders: [], nextCheckAt: null });
  });

  test('when the window is configured wider, then a clock enters it earlier', () => {
    const plan = planReminders({ ...running, acknowledgement_due_at: at(4 * DAY) }, now, 5 * DAY);
    expect(plan.reminders).toEqual([{ clock: 'acknowledgement', state: 'due_soon', dueAt: at(4 * DAY) }]);
  });
});
