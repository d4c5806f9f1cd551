import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorSummary, focusField } from '@whistle/ui';
import { REQUIRED_FIELDS, requiredFieldIds, type ReportErrors } from './report-form';
import type { useReportForm } from './use-report-form';

/**
 * Missing required fields shown after a submit (or the server's refusal): the first one brought into view with the
 * focus once its message is on screen (at 390 px the others may be far above the button).
 */
export function useMissingFields(report: ReturnType<typeof useReportForm>) {
  // A new object each time: the same field again is focused again.
  const [focusTarget, setFocusTarget] = useState<{ id: string }>();
  useEffect(() => {
    if (focusTarget) focusField(focusTarget.id);
  }, [focusTarget]);

  function show(errors: ReportErrors) {
    report.showErrors(errors);
    const first = REQUIRED_FIELDS.find((name) => errors[name]);
    if (first) setFocusTarget({ id: requiredFieldIds[first] });
  }

  /** Checks the form, shows what is missing; true when nothing is. */
  function isValid() {
    const errors = report.check();
    show(errors);
    return Object.keys(errors).length === 0;
  }
  return { show, isValid };
}

/** What is missing, beside the submit button, each entry a link to its field. */
export function MissingFieldsSummary({ errors }: { errors: ReportErrors }) {
  const { t } = useTranslation(['disclose', 'common']);
  return (
    <ErrorSummary
      title={t('create.errorSummary')}
      errors={REQUIRED_FIELDS.filter((name) => errors[name]).map((name) => ({
        target: requiredFieldIds[name],
        text: t('create.errorEntry', { field: t(`create.${name}`), message: t('common:validation.required') }),
      }))}
    />
  );
}
