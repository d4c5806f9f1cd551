import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { ReadersStep, type ReadersStepProps } from './readers-step.component';
import { emptyReportForm, type ReportForm } from './report-form';

const reader = (key_id: string, role: 'ADMIN' | 'HANDLER', display_name: string | null) => ({
  key_id,
  public_key: 'k',
  role,
  display_name,
});
const hal = 'a0000000-0000-4000-8000-00000000000a';
const ada = 'c0000000-0000-4000-8000-00000000000c';

function companyOf(named: boolean): ReadersStepProps['company'] {
  return {
    shows_recipient_names: named,
    categories: [
      {
        uuid: 'fraud',
        name: 'Fraud',
        parent_uuid: null,
        recipient_keys: [reader(hal, 'HANDLER', named ? 'Hal' : null)],
      },
      { uuid: 'safety', name: 'Safety', parent_uuid: null, recipient_keys: [] },
    ],
    every_case_keys: [reader(ada, 'ADMIN', named ? 'Ada' : null)],
  };
}

/** The step inside a form that keeps what it sets, as the report form does. */
function Step({ company, onForm }: { company: ReadersStepProps['company']; onForm: (form: ReportForm) => void }) {
  const [form, setForm] = useState<ReportForm>({ ...emptyReportForm(), category_uuids: ['fraud'] });
  onForm(form);
  return (
    <ReadersStep
      form={form}
      set={(name, value) => setForm((before) => ({ ...before, [name]: value }))}
      company={company}
    />
  );
}

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});

it('when names are shown, then each reader of the chosen categories and each admin can be kept out, and keeping out everyone says one must remain', () => {
  let form = emptyReportForm();
  renderWithI18n(<Step company={companyOf(true)} onForm={(current) => (form = current)} />, english);
  expect(screen.getByRole('group', { name: 'Who will read this report' })).toBeTruthy();
  const halBox = screen.getByRole('checkbox', { name: /Hal \(Case handler\)/ });
  const adaBox = screen.getByRole('checkbox', { name: /Ada \(Administrator\)/ });
  expect(screen.queryByRole('alert')).toBeNull();

  fireEvent.click(halBox);
  expect(form.excluded_key_ids).toEqual([hal]);
  expect(screen.getByText(/kept out: will not see this report/)).toBeTruthy();
  fireEvent.click(adaBox);
  expect(form.excluded_key_ids).toEqual([hal, ada]);
  expect(screen.getByRole('alert').textContent).toBe(
    'At least one person must receive your report. Tick at least one.',
  );

  fireEvent.click(halBox);
  expect(form.excluded_key_ids).toEqual([ada]);
  expect(screen.queryByRole('alert')).toBeNull();
});

it('when the company does not show names, then the step says who reads the report by role and offers no choice', () => {
  renderWithI18n(<Step company={companyOf(false)} onForm={() => undefined} />, english);
  expect(
    screen.getByText(
      'These people will be able to read your report. The company does not show their names on this form.',
    ),
  ).toBeTruthy();
  expect(screen.getByText('Case handler')).toBeTruthy();
  expect(screen.getByText('Administrator')).toBeTruthy();
  expect(screen.queryByRole('checkbox')).toBeNull();
});
