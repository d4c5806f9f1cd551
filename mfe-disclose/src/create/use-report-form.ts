import { useCallback, useReducer } from 'react';
import { emptyReportForm, validateReport, type ReportErrors, type ReportForm, type RequiredField } from './report-form';

export type SetReportField = <K extends keyof ReportForm>(name: K, value: ReportForm[K]) => void;

interface ReportFormState {
  form: ReportForm;
  /** Required fields shown as missing: set by a check or by the server, cleared as each is edited. */
  errors: ReportErrors;
}

type ReportFormAction =
  | { type: 'change'; name: keyof ReportForm; value: ReportForm[keyof ReportForm] }
  | { type: 'errors'; errors: ReportErrors };

export function reportFormReducer(state: ReportFormState, action: ReportFormAction): ReportFormState {
  if (action.type === 'errors') return { ...state, errors: action.errors };
  const errors = { ...state.errors };
  delete errors[action.name as RequiredField];
  return { form: { ...state.form, [action.name]: action.value }, errors };
}

const initialState = (): ReportFormState => ({ form: emptyReportForm(), errors: {} });

/** The report's inputs (spec §3) and which required ones are missing (spec §5). */
export function useReportForm() {
  const [{ form, errors }, dispatch] = useReducer(reportFormReducer, undefined, initialState);
  const set: SetReportField = useCallback((name, value) => dispatch({ type: 'change', name, value }), []);
  const showErrors = useCallback((found: ReportErrors) => dispatch({ type: 'errors', errors: found }), []);
  /** What is missing now (shown with `showErrors`). */
  const check = () => validateReport(form);
  return { form, errors, set, check, showErrors };
}
