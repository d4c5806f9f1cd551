import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Form } from 'react-router';
import { Button, TextField } from '@whistle/ui';

/** Inline 'Check incident status' form (spec §2/§4): posts the secret code to the review page. */
export function StatusForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation(['disclose', 'common']);
  const [missing, setMissing] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // The form appears after a click: move the keyboard focus into it.
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, []);

  function checkRequired(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem('uniquePassword') as HTMLInputElement;
    if (input.value.trim()) return;
    event.preventDefault();
    setMissing(true);
    input.focus();
  }

  return (
    <Form
      ref={formRef}
      method="post"
      action="review"
      noValidate
      onSubmit={checkRequired}
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
    </Form>
  );
}
