import type { ReactNode } from 'react';

export interface FieldProps {
  id: string;
  label: ReactNode;
  error?: string;
  /** Marks the field required: these words follow the label (the control gets aria-required). */
  requiredMark?: string;
  children: ReactNode;
}

/** The words after a required field's label, part of its accessible name. */
export const RequiredMark = ({ words }: { words?: string }) =>
  words ? <span className="wh-field__required"> ({words})</span> : null;

/** Label, control and error message, bound together by ids so screen readers announce the error. */
export function Field({ id, label, error, requiredMark, children }: FieldProps) {
  return (
    <div className={error ? 'wh-field wh-field--invalid' : 'wh-field'}>
      <label className="wh-field__label" htmlFor={id}>
        {label}
        <RequiredMark words={requiredMark} />
      </label>
      {children}
      {error && (
        <p className="wh-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export const errorProps = (id: string, error?: string) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

/** aria-required for a control whose field is marked required. */
export const requiredProps = (requiredMark?: string) => (requiredMark ? { 'aria-required': true as const } : {});
