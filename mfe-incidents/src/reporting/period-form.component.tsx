import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, DateField, SelectField } from '@whistle/ui';
import {
  MAX_YEARS,
  PRESETS,
  periodProblem,
  presetOf,
  presetPeriod,
  type Period,
  type PeriodProblem,
  type Preset,
} from './period';

const CUSTOM = 'custom';

/** The period chooser: a preset applies at once; typed dates when shown, after a check. */
export function PeriodForm({ period, today, onChange }: { period: Period; today: Date; onChange(next: Period): void }) {
  const { t } = useTranslation('incidents');
  const [draft, setDraft] = useState<Period>(period);
  const [problem, setProblem] = useState<PeriodProblem>();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = periodProblem(draft);
    setProblem(found);
    if (!found) onChange(draft);
  };
  return (
    <>
      <form className="case-filters reporting-period" onSubmit={apply} aria-label={t('reporting.period')}>
        <SelectField
          name="preset"
          label={t('reporting.preset')}
          value={presetOf(period, today) ?? CUSTOM}
          onChange={(event) => {
            if (event.target.value !== CUSTOM) onChange(presetPeriod(event.target.value as Preset, today));
          }}
          options={[
            ...PRESETS.map((preset) => ({ value: preset, label: t(`reporting.presets.${preset}`) })),
            { value: CUSTOM, label: t('reporting.presets.custom') },
          ]}
        />
        <DateField
          name="from"
          label={t('reporting.from')}
          value={draft.from}
          onChange={(from) => setDraft({ ...draft, from })}
        />
        <DateField name="to" label={t('reporting.to')} value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
        <Button type="submit" variant="secondary">
          {t('reporting.apply')}
        </Button>
      </form>
      {problem && (
        <p className="wh-alert" role="alert">
          {t(`reporting.problems.${problem}`, { years: MAX_YEARS })}
        </p>
      )}
    </>
  );
}
