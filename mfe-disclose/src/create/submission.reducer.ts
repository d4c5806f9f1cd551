/** Where the report is between its form and the success page. */
export interface SubmissionState {
  step: 'editing' | 'confirming' | 'sending';
  /** The last sending failed for a reason other than a field (a network or server failure). */
  failed: boolean;
}

/**
 * `confirm`: the form is complete, the discloser is asked to confirm; `cancel`: back to the form
 * (a report being sent goes on); `send`: encrypting and sending; `refused`: the server named missing
 * fields (shown next to them); `fail`: sending failed otherwise.
 */
export type SubmissionAction = 'confirm' | 'cancel' | 'send' | 'refused' | 'fail';

export const initialSubmission: SubmissionState = { step: 'editing', failed: false };

export function submissionReducer(state: SubmissionState, action: SubmissionAction): SubmissionState {
  switch (action) {
    case 'confirm':
      return state.step === 'editing' ? { ...state, step: 'confirming' } : state;
    case 'cancel':
      return state.step === 'confirming' ? { ...state, step: 'editing' } : state;
    case 'send':
      return { step: 'sending', failed: false };
    case 'refused':
      return { step: 'editing', failed: false };
    case 'fail':
      return { step: 'editing', failed: true };
  }
}
