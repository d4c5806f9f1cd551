import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '@whistle/ui';

export interface StatusFormProps {
  /** The review page, which the code is posted to. */
  action: string;
  onSubmitCode(code: string): void;
  onCancel(): void;
}

/** Inline 'Check incident status' form (spec §2/§4): posts the secret code to the review page. */
export function StatusForm({ action, onSubmitCode, onCancel }: StatusFormProps) {
  const { t } = useTranslation(['disclose', 'common']);
  const [missing, setMissing] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // The form appears after a click: move the keyboard focus into it.
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, []);

  function submit(event: FormEvent<HTMLFormElement>) {
    // Posted in the page (the router runs the review action), never by the browser.
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('uniquePassword') as HTMLInputElement;
    if (input.value.trim()) return onSubmitCode(input.value);
    setMissing(true);
    input.focus();
  }

  return (
    <form
      ref={formRef}
      method="post"
      action={action}
      noValidate
      onSubmit={submit}
      className="disclose-status"
      aria-labelledby="status-title"
    >
      <h2 id="status-title">{t('status.title')}</h2>
      <TextField
        name="uniquePassword"
        label={t('status.secretCode')}
        placeholder={t('status.placeholder')}
        required
        autoComplete="off"
        spellCheck={false}
        error={missing ? t('common:validation.required') : undefined}
        onChange={() => setMissing(false)}
      />
      <div className="wh-actions">
        <Button variant="secondary" onClick={onCancel}>
          {t('status.cancel')}
        </Button>
        <Button type="submit">{t('status.submit')}</Button>
      </div>
    </form>
  );
}
