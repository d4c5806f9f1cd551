import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { Field, errorProps } from './field.component';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  name: string;
  label: ReactNode;
  error?: string;
}

export function TextField({ label, error, type = 'text', className, ...props }: TextFieldProps) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error}>
      <input
        {...props}
        {...errorProps(id, error)}
        id={id}
        type={type}
        className={['wh-input', className].filter(Boolean).join(' ')}
      />
    </Field>
  );
}
