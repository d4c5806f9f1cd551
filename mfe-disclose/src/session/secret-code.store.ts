/**
 * The secret code between the create and success pages. Memory only (never storage or the URL):
 * it is shown once, and a reload or a new tab must not bring it back.
 */
export interface Submission {
  secretCode: string;
  /** Names of files the report was sent without. */
  failedFiles: string[];
  /** The receipt's facts (submit-report.ts, SubmissionReceipt); shown with the code, forgotten with it. */
  receipt: { reportNumber: number; sentAt: string; fingerprint: string };
}

let pending: Submission | null = null;

export const holdSubmission = (submission: Submission) => {
  pending = submission;
};
export const peekSubmission = () => pending;
export const forgetSubmission = () => {
  pending = null;
};
