/**
 * What a new company starts with, so its employees can report from the first minute. Admins rename,
 * deactivate or extend these in the settings. Names are company data (kept in the company's language
 * once edited), so they live here and not in the locale files.
 */
export const defaultCategories: ReadonlyArray<{ name: string; children: readonly string[] }> = [
  {
    name: 'Fraud and corruption',
    children: ['Bribery', 'Accounting irregularities', 'Theft or embezzlement', 'Conflict of interest'],
  },
  { name: 'Harassment and discrimination', children: ['Sexual harassment', 'Bullying', 'Discrimination'] },
  { name: 'Health and safety', children: ['Unsafe working conditions', 'Environmental harm'] },
  { name: 'Data protection and privacy', children: ['Personal data breach', 'Misuse of confidential information'] },
  { name: 'Other misconduct', children: [] },
];

export const defaultLocations: readonly string[] = ['Head office'];
