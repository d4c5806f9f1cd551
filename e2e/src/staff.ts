import type { Page } from 'playwright-core';
import { generate } from 'otplib';
import { companyPayload, postJson } from './company-fixtures';

export const STAFF_PASSWORD = 'correct horse battery staple';

export interface OnboardedCompany {
  urlIdentifier: string;
  adminEmail: string;
  domain: string;
}

/** A company onboarded through the API (the onboarding page has its own journey). */
export async function onboardCompany(baseUrl: string): Promise<OnboardedCompany> {
  const payload = await companyPayload();
  const response = await postJson(baseUrl, '/api/account/company', payload);
  if (response.status !== 201) throw new Error(`Onboarding answered ${response.status}: ${await response.text()}`);
  const { url_identifier } = (await response.json()) as { url_identifier: string };
  const adminEmail = payload.user_profile.email;
  return { urlIdentifier: url_identifier, adminEmail, domain: adminEmail.split('@')[1] };
}

/**
 * A TOTP code `stepsAhead` time steps from now. The server accepts one step of drift and never the
 * same step twice, so a sign-in right after enrolment uses the next step.
 */
export const totpCode = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

/** An access token through the API (for a user without MFA). */
export async function apiToken(baseUrl: string, email: string, password = STAFF_PASSWORD): Promise<string> {
  const response = await postJson(baseUrl, '/api/account/token', { username: email, password });
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

/** Fills and sends the login form of `page` (already on it). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The browser's session token (for API calls a journey makes as that user). */
export const browserToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));
