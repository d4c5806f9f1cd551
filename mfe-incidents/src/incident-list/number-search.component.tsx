import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button, TextField } from '@whistle/ui';
import { reportNumberOf, withFilter } from './list-query';

/**
 * Finds a case by the number people quote ("#12"): the server answers from the cases the viewer may see, so a
 * number they may not open finds nothing, like an unknown one.
 */
export function NumberSearch() {
  const { t } = useTranslation('incidents');
  const [params, setParams] = useSearchParams();
  const current = params.get('report_number') ?? '';
  const [text, setText] = useState(current ? `#${current}` : '');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = reportNumberOf(text);
    if (number === null) {
      setError(t('search.numberInvalid'));
      return;
    }
    setError(undefined);
    setParams(withFilter(params, 'report_number', number));
  };
  return (
    <form role="search" className="case-search" aria-label={t('search.label')} onSubmit={submit} noValidate>
      <TextField
        name="report_number"
        label={t('search.number')}
        value={text}
        inputMode="numeric"
        autoComplete="off"
        error={error}
        onChange={(event) => setText(event.target.value)}
      />
      <Button type="submit">{t('search.submit')}</Button>
    </form>
  );
}
