import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generate } from 'otplib';
import type { SsoSettingsRequest } from '@whistle/contracts';
import { fetchCall, grantReportAccess, onboardingPayload, signInBody } from '@whistle/test-support';
import { onboardAndConfirm, postJson, uniqueDomain } from './company-fixtures';
import { passwordLinkIn, waitForMail, type Mailbox } from './mailbox';

export const STAFF_PASSWORD = 'correct horse battery staple';

export interface OnboardedCompany {
  urlIdentifier: string;
  adminEmail: string;
  domain: string;
  /** The recovery kit the admin printed at onboarding (its text, as typed back). */
  recoveryKit: string;
}

/**
 * A company onboarded through the API as the onboarding page does it, and confirmed from its admin's mailbox (the
 * page has its own journey).
 */
export async function onboardCompany(platform: { baseUrl: string; mailbox: Mailbox }): Promise<OnboardedCompany> {
  const made = await onboardingPayload({
    email: `ada@${uniqueDomain()}`,
    password: STAFF_PASSWORD,
    full_name: 'Ada Lovelace',
    name: 'Acme Corporation',
  });
  const urlIdentifier = await onboardAndConfirm(platform, made.payload);
  const adminEmail = made.payload.user_profile.email;
  return { urlIdentifier, adminEmail, domain: adminEmail.split('@')[1], recoveryKit: made.recovery.text };
}

/**
 * A TOTP code `stepsAhead` time steps from now. The server accepts one step of drift and never the
 * same step twice, so a sign-in right after enrolment uses the next step.
 */
export const totpCode = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

/** An access token through the API (for a user without MFA), signing in as the login page does. */
export async function apiToken(baseUrl: string, email: string, password = STAFF_PASSWORD): Promise<string> {
  const response = await postJson(baseUrl, '/api/account/token', await signInBody(fetchCall(baseUrl), email, password));
  const body = (await response.json()) as { token?: string };
  if (!body.token) throw new Error(`Login of ${email} answered ${response.status} without a token`);
  return body.token;
}

/** The admin invites a team member (the invitation e-mail carries a set-password link). */
export async function invite(
  baseUrl: string,
  adminToken: string,
  member: { email: string; full_name: string; roles: string[] },
): Promise<void> {
  const response = await fetch(`${baseUrl}/api/account/company/user_profile/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify(member),
  });
  if (response.status !== 201) throw new Error(`Invitation answered ${response.status}: ${await response.text()}`);
}

/** The invited member sets their password on the page the invitation e-mail links to. */
export async function acceptInvitation(page: Page, dataDir: string, email: string, password: string): Promise<void> {
  await page.goto(passwordLinkIn(await waitForMail(dataDir, email, /invited/)));
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="repeat_password"]').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your password has been set.').waitFor();
}

/**
 * The admin approves a team member's access to reports through the API, as the security settings page does after
 * comparing fingerprints (that page has its own journey). The member must have keys (signed in once).
 */
export async function approveReportAccess(
  baseUrl: string,
  admin: { email: string; password?: string },
  memberFullName: string,
): Promise<void> {
  const password = admin.password ?? STAFF_PASSWORD;
  const token = await apiToken(baseUrl, admin.email, password);
  const call = fetchCall(baseUrl);
  const team = (await call('GET', '/api/account/company/keys/people', { bearer: token })).body as {
    people: { user_id: string; full_name: string }[];
  };
  const member = team.people.find((person) => person.full_name === memberFullName);
  if (!member) throw new Error(`${memberFullName} is not in the team`);
  await grantReportAccess(call, { token, password }, member.user_id);
}

/** The admin saves the company's SSO settings through the API, as the settings page does. */
export async function saveSsoSettings(
  baseUrl: string,
  adminToken: string,
  settings: Pick<SsoSettingsRequest, 'enabled' | 'entry_point' | 'idp_certificate' | 'email_attribute'>,
): Promise<void> {
  const response = await fetch(`${baseUrl}/api/account/company/sso`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify(settings),
  });
  if (response.status !== 200) throw new Error(`SSO settings answered ${response.status}: ${await response.text()}`);
}

/** Fills and sends the login form of `page` (already on it). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * After a password sign-in has shown its first page: waits until the person's keys are opened and kept in this
 * browser (the shell's IndexedDB store). The list is drawn while the keys still open; a reload before they are kept
 * finds them locked and asks for the password again, so a journey that reloads right after signing in waits here.
 */
export async function keysKept(page: Page): Promise<void> {
  await page.waitForFunction(
    async () => {
      // Never opened here before the shell made it: opening a missing database would create it without its store.
      if (!(await indexedDB.databases()).some((database) => database.name === 'whistle-keys')) return false;
      return new Promise<boolean>((resolve) => {
        const opening = indexedDB.open('whistle-keys');
        opening.onerror = () => resolve(false);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains('unlocked')) return resolve((db.close(), false));
          const counting = db.transaction('unlocked', 'readonly').objectStore('unlocked').count();
          counting.onsuccess = () => resolve((db.close(), counting.result > 0));
          counting.onerror = () => resolve((db.close(), false));
        };
      });
    },
    null,
    { polling: 100, timeout: 30_000 },
  );
}

/**
 * Signs in from the login page and waits for the case list with the person's keys kept (see `keysKept`): what a
 * journey that goes on to reload or open other pages needs.
 */
export async function signInToCases(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/company/login`);
  await submitLogin(page, email, password);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await keysKept(page);
}

/** Waits until `check` holds (what a page shows settles after its decryption). */
export async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not settled within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens the actions menu of the table row named `name` (team, labels, locations, templates) and chooses `item`. */
export async function chooseRowAction(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page
    .getByRole('menu', { name: `Actions for ${name}`, exact: true })
    .getByRole('menuitem', { name: item, exact: true })
    .click();
}

/** The browser's session token (for API calls a journey makes as that user). */
export const browserToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

/**
 * An admin signed in with French chosen, in a fresh context (CSP bypassed for axe-core), as a returning visitor who
 * picked it: the choice is in the context's storage before the first page loads, not written by the page and
 * followed at once by a reload. The answer comes once the company app shows the signed-in header in French (the
 * account menu needs the loaded session), not as soon as the URL is /company/incidents: that changes before the new
 * page has loaded anything, and a journey navigating away at that moment raced the sign-in.
 */
export async function signInInFrench(
  browser: Browser,
  baseUrl: string,
  email: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    bypassCSP: true,
    locale: 'fr-FR',
    storageState: {
      cookies: [],
      origins: [{ origin: baseUrl, localStorage: [{ name: 'i18n-language', value: 'fr' }] }],
    },
  });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/company/login`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await page.getByRole('button', { name: /^Menu du compte de / }).waitFor();
  return { context, page };
}

/** The admin assigns a case to team members through the API, as the case page does (its journey is case-access). */
export async function assignCase(
  baseUrl: string,
  adminToken: string,
  incidentUuid: string,
  assigneeIds: string[],
): Promise<void> {
  const response = await fetch(`${baseUrl}/api/incident/${incidentUuid}/`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ assignee_uuids: assigneeIds }),
  });
  if (!response.ok) throw new Error(`Assigning the case answered ${response.status}: ${await response.text()}`);
}

/** A team member's keys as the team sees them (user id, fingerprint), by full name. */
export async function teamMemberKeys(
  baseUrl: string,
  adminToken: string,
  fullName: string,
): Promise<{ user_id: string; fingerprint: string | null }> {
  const response = await fetch(`${baseUrl}/api/account/company/keys/people`, {
    headers: { accept: 'application/json', authorization: `Bearer ${adminToken}` },
  });
  const { people } = (await response.json()) as {
    people: { user_id: string; full_name: string; fingerprint: string | null }[];
  };
  const member = people.find((person) => person.full_name === fullName);
  if (!member) throw new Error(`${fullName} is not in the team`);
  return member;
}
