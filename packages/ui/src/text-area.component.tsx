import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { Field, errorProps, requiredProps } from './field.component';

export interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  name: string;
  label: ReactNode;
  error?: string;
  /** Marks the field required, with these words after the label (e.g. 'required'). */
  requiredMark?: string;
}

/** Multi-line text with its label and error message, like TextField. */
export function TextArea({ id: givenId, requiredMark, label, error, rows = 5, className, ...props }: TextAreaProps) {
  const generatedId = useId();
  // A given id lets a page link to the control (an error summary).
  const id = givenId ?? generatedId;
  return (
    <Field id={id} label={label} error={error} requiredMark={requiredMark}>
      <textarea
        {...props}
        {...errorProps(id, error)}
        {...requiredProps(requiredMark)}
        id={id}
        rows={rows}
        className={['wh-input', className].filter(Boolean).join(' ')}
      />
    </Field>
  );
}
