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

/**
 * What is missing, beside the submit button, each entry a link to its field; then a voice message recorded but not
 * among the files, when it stopped the sending (`heldVoice`: the id of the recorder's control that decides).
 */
export function MissingFieldsSummary({ errors, heldVoice }: { errors: ReportErrors; heldVoice?: string }) {
  const { t } = useTranslation(['disclose', 'common']);
  const entry = (field: string, message: string) => t('create.errorEntry', { field, message });
  return (
    <ErrorSummary
      title={t('create.errorSummary')}
      errors={[
        ...REQUIRED_FIELDS.filter((name) => errors[name]).map((name) => ({
          target: requiredFieldIds[name],
          text: entry(t(`create.${name}`), t('common:validation.required')),
        })),
        ...(heldVoice
          ? [{ target: heldVoice, text: entry(t('common:voice.title'), t('common:voice.unsent.entry')) }]
          : []),
      ]}
    />
  );
}
