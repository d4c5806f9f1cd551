import type { ReactNode } from 'react';

export interface FieldProps {
  id: string;
  label: ReactNode;
  error?: string;
  children: ReactNode;
}

/** Label, control and error message, bound together by ids so screen readers announce the error. */
export function Field({ id, label, error, children }: FieldProps) {
  return (
    <div className={error ? 'wh-field wh-field--invalid' : 'wh-field'}>
      <label className="wh-field__label" htmlFor={id}>
        {label}
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
