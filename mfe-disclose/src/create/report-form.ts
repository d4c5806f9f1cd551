import type { ReportChannel, ReportField } from '@whistle/contracts';

/** The report form inputs of spec §3, under their spec names. */
export interface ReportForm {
  report_channel: ReportChannel;
  report_anonymously: boolean;
  full_name: string;
  email: string;
  phone_number_code: string;
  phone_number: string;
  category_uuids: string[];
  description: string;
  location_uuid: string;
  location_detail: string;
  date: string;
  end_date: string;
  people_involved: string;
  outcome: string;
  can_contact: 'yes' | 'no';
  previous_report: 'yes' | 'no';
  previous_report_details: string;
  /**
   * Not in the spec (docs/security.md, "Keeping people out"): the readers the discloser keeps out, by the key id the
   * company view lists them under. Sent as it is, never encrypted: the server enforces it.
   */
  excluded_key_ids: string[];
}

/**
 * A new report: anonymous until the discloser chooses to give their name; `online`, the channel of this public
 * form (telephone and internal are for reports staff record).
 */
export const emptyReportForm = (): ReportForm => ({
  report_channel: 'online',
  report_anonymously: true,
  full_name: '',
  email: '',
  phone_number_code: '',
  phone_number: '',
  category_uuids: [],
  description: '',
  location_uuid: '',
  location_detail: '',
  date: '',
  end_date: '',
  people_involved: '',
  outcome: '',
  can_contact: 'yes',
  previous_report: 'no',
  previous_report_details: '',
  excluded_key_ids: [],
});

/** Spec §5: the required inputs, in the order the form shows them (the first missing one gets the focus). */
export const REQUIRED_FIELDS = ['category_uuids', 'description', 'location_uuid'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];
export type ReportErrors = Partial<Record<RequiredField, true>>;

/** Spec §5: categories, location and description are required. */
export function validateReport(form: ReportForm): ReportErrors {
  const errors: ReportErrors = {};
  if (form.category_uuids.length === 0) errors.category_uuids = true;
  if (!form.location_uuid) errors.location_uuid = true;
  if (!form.description.trim()) errors.description = true;
  return errors;
}

/** Ids of the required inputs' controls (a category group: its first box), for the error summary's links. */
export const requiredFieldIds: Record<RequiredField, string> = {
  category_uuids: 'report-category_uuids',
  description: 'report-description',
  location_uuid: 'report-location_uuid',
};

const identityFields = ['full_name', 'email', 'phone_number_code', 'phone_number'] as const;
const textFields = ['description', 'location_detail', 'date', 'end_date', 'people_involved', 'outcome'] as const;

/**
 * What travels encrypted: every filled text input. Identity inputs are dropped when reporting
 * anonymously (even if typed before the toggle), the previous report's details when there is none.
 */
export function encryptedFieldValues(form: ReportForm): Partial<Record<ReportField['name'], string>> {
  const values: Partial<Record<ReportField['name'], string>> = {};
  const keep = (name: ReportField['name'], value: string) => {
    if (value.trim()) values[name] = value.trim();
  };
  if (!form.report_anonymously) {
    for (const name of identityFields) keep(name, form[name]);
    // A dial code alone says nothing: it only goes with a number.
    if (!values.phone_number) delete values.phone_number_code;
  }
  for (const name of textFields) keep(name, form[name]);
  keep('can_contact', form.can_contact);
  keep('previous_report', form.previous_report);
  if (form.previous_report === 'yes') keep('previous_report_details', form.previous_report_details);
  return values;
}
