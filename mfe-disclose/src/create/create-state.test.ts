import { emptyReportForm } from './report-form';
import { initialSubmission, submissionReducer, type SubmissionAction } from './submission.reducer';
import { reportFormReducer } from './use-report-form';

describe('report form state', () => {
  it('when a field with an error is edited, then its error alone clears', () => {
    const state = {
      form: emptyReportForm(),
      errors: { category_uuids: true, description: true } as const,
    };
    const next = reportFormReducer(state, { type: 'change', name: 'description', value: 'It happened' });
    expect(next.form.description).toBe('It happened');
    expect(next.errors).toEqual({ category_uuids: true });
    expect(reportFormReducer(next, { type: 'change', name: 'outcome', value: 'o' }).errors).toEqual({
      category_uuids: true,
    });
  });
});

describe('submission state', () => {
  const run = (...actions: SubmissionAction[]) => actions.reduce(submissionReducer, initialSubmission);

  it('when confirmed and sent, then it is sending; a failure goes back to the form with the alert, a refusal without', () => {
    expect(run('confirm')).toEqual({ step: 'confirming', failed: false });
    expect(run('confirm', 'send')).toEqual({ step: 'sending', failed: false });
    expect(run('confirm', 'send', 'fail')).toEqual({ step: 'editing', failed: true });
    expect(run('confirm', 'send', 'fail', 'confirm')).toEqual({ step: 'confirming', failed: true });
    expect(run('confirm', 'send', 'fail', 'confirm', 'send', 'refused')).toEqual({ step: 'editing', failed: false });
  });

  it('when the leave prompt is dismissed while the report is being sent, then sending goes on', () => {
    expect(run('confirm', 'send', 'cancel')).toEqual({ step: 'sending', failed: false });
    expect(run('confirm', 'send', 'confirm')).toEqual({ step: 'sending', failed: false });
    expect(run('confirm', 'cancel')).toEqual({ step: 'editing', failed: false });
  });
});
