import type { CompanyPublicView } from '@whistle/contracts';
import { CategoryPicker } from '../category-picker.component';
import { SelectField } from '../select-field.component';
import { TextArea } from '../text-area.component';
import { TextField } from '../text-field.component';
import './incident-fields.css';

/** What happened, where and when: the report's incident fields as both report forms keep them. */
export interface IncidentFieldValues {
  category_uuids: string[];
  description: string;
  location_uuid: string;
  location_detail: string;
  date: string;
  end_date: string;
  people_involved: string;
  outcome: string;
}

/** The fields a report cannot go without (spec §5). */
export type RequiredIncidentField = 'category_uuids' | 'description' | 'location_uuid';

/** Each form's own words (its namespace and languages: 27 for the discloser's, 8 for the staff's). */
export type IncidentFieldWords = Record<keyof IncidentFieldValues, string> & { locationPlaceholder: string };

export interface IncidentFieldsProps {
  values: IncidentFieldValues;
  /** Each form's own setter (typed over its whole form, which holds these fields): the categories, else text. */
  set: (name: keyof IncidentFieldValues, value: string | string[]) => void;
  company: Pick<CompanyPublicView, 'categories' | 'locations'>;
  words: IncidentFieldWords;
  /** A required field's mark, its error when missing, and the id an error summary links to (if any). */
  required: (name: RequiredIncidentField) => { id?: string; error?: string; requiredMark: string };
}

/**
 * Spec §3: what happened, where and when, among the company's categories and locations — the discloser's report
 * form and the staff's record of a report taken by telephone or in a meeting (issue 26) render the same fields.
 */
export function IncidentFields({ values, set, company, words, required }: IncidentFieldsProps) {
  return (
    <>
      <CategoryPicker
        name="category_uuids"
        legend={words.category_uuids}
        categories={company.categories}
        selected={values.category_uuids}
        {...required('category_uuids')}
        onChange={(selected) => set('category_uuids', selected)}
      />
      <TextArea
        name="description"
        label={words.description}
        value={values.description}
        onChange={(event) => set('description', event.target.value)}
        {...required('description')}
      />
      <SelectField
        name="location_uuid"
        label={words.location_uuid}
        placeholder={words.locationPlaceholder}
        {...required('location_uuid')}
        options={company.locations.map((location) => ({ value: location.uuid, label: location.name }))}
        value={values.location_uuid}
        onChange={(event) => set('location_uuid', event.target.value)}
      />
      <TextField
        name="location_detail"
        label={words.location_detail}
        value={values.location_detail}
        onChange={(event) => set('location_detail', event.target.value)}
      />
      <div className="wh-report-dates">
        <TextField
          name="date"
          type="date"
          label={words.date}
          value={values.date}
          onChange={(event) => set('date', event.target.value)}
        />
        <TextField
          name="end_date"
          type="date"
          label={words.end_date}
          min={values.date || undefined}
          value={values.end_date}
          onChange={(event) => set('end_date', event.target.value)}
        />
      </div>
      <TextArea
        name="people_involved"
        label={words.people_involved}
        value={values.people_involved}
        onChange={(event) => set('people_involved', event.target.value)}
      />
      <TextArea
        name="outcome"
        label={words.outcome}
        value={values.outcome}
        onChange={(event) => set('outcome', event.target.value)}
      />
    </>
  );
}
