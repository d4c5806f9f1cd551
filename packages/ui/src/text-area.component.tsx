import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { Field, errorProps } from './field.component';

export interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  name: string;
  label: ReactNode;
  error?: string;
}

/** Multi-line text with its label and error message, like TextField. */
export function TextArea({ label, error, rows = 5, className, ...props }: TextAreaProps) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error}>
      <textarea
        {...props}
        {...errorProps(id, error)}
        id={id}
        rows={rows}
        className={['wh-input', className].filter(Boolean).join(' ')}
      />
    </Field>
  );
}
