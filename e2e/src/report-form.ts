import type { Page } from 'playwright-core';

/** Fills the report form's required inputs: the first category, the first location, the description. */
export async function fillRequired(page: Page, description: string): Promise<void> {
  await page.locator('input[name="category_uuids"]').first().check();
  await page.locator('select[name="location_uuid"]').selectOption({ index: 1 });
  await page.locator('textarea[name="description"]').fill(description);
}

/**
 * Sends the report form, confirms it with the dialog's `confirmLabel` (in the page's language), and returns the
 * secret code the success page shows (drawn in groups with nothing between them: the element's text is the code).
 */
export async function submitReport(page: Page, confirmLabel: string): Promise<string> {
  await page.locator('form button[type="submit"]:enabled').click();
  await page.getByRole('dialog').getByRole('button', { name: confirmLabel }).click();
  await page.waitForURL(/\/success$/, { timeout: 30_000 });
  return (await page.locator('.disclose-code__value').textContent())!;
}
