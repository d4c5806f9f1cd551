import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openWatchedPage, type WatchedPage } from '../../src/browser';
import { postJson } from '../../src/company-fixtures';
import { publicView, reportBody } from '../../src/reports';
import { simpleSamlPhpUnavailable, startSimpleSamlPhp, type SimpleSamlPhpIdp } from '../../src/simplesamlphp';
import {
  apiToken,
  approveReportAccess,
  assignCase,
  invite,
  onboardCompany,
  saveSsoSettings,
  teamMemberKeys,
  type OnboardedCompany,
} from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';
import { addPrfAuthenticator, webAuthnOf, type VirtualAuthenticator } from '../../src/virtual-authenticator';

/**
 * A handler who signs in only by SSO (SimpleSAMLphp) opens reports with a passkey (docs/security.md, "Keys"): the
 * real WebAuthn API in Chromium, answered by the DevTools protocol's virtual authenticators with the PRF extension.
 * At their first sign-in they set up their keys with a passkey; an admin grants them the company key (through the
 * API: the fingerprint comparison page has its own journey); after signing out and in again by SSO, the passkey's
 * PRF output unlocks their keys and a case assigned to them opens decrypted. On the account page a second passkey on
 * the same device is refused (it would replace the first there); they add one on a security key and remove the
 * first, which then opens nothing while the second still does.
 * WebAuthn takes no IP address as relying party: the platform runs on http://localhost (a secure context).
 */
const unavailable = simpleSamlPhpUnavailable();
const ci = Boolean(process.env.CI) && process.env.CI !== 'false';

if (unavailable && ci) {
  test('SimpleSAMLphp can run on this CI machine', () => {
    throw new Error(`${unavailable}; scripts/ensure-test-infra.sh installs it`);
  });
} else if (unavailable) {
  console.warn(`Skipping the passkeys journey: ${unavailable}`);
  test.skip(`passkeys of an SSO handler (skipped: ${unavailable})`, () => undefined);
} else {
  describe('passkeys of a handler who signs in by SSO', journey);
}

function journey() {
  let platform: StandalonePlatform;
  let browser: Browser;
  let idp: SimpleSamlPhpIdp;
  let company: OnboardedCompany;
  let context: BrowserContext;
  let handler: WatchedPage;
  /** The device's own authenticator, where the first passkey is made. */
  let device: VirtualAuthenticator;
  const handlerEmail = () => `hana@${company.domain}`;
  const HANDLER = 'Hana Handler';
  const IDP_PASSWORD = 'idp passphrase 5678';
  const DESCRIPTION = 'Expense claims approved by the claimant himself';

  beforeAll(async () => {
    [platform, browser] = await startPlatformAndBrowser({ host: 'localhost' });
    company = await onboardCompany(platform);
    const adminToken = await apiToken(platform.baseUrl, company.adminEmail);
    await invite(platform.baseUrl, adminToken, { email: handlerEmail(), full_name: HANDLER, roles: ['HANDLER'] });
    const spMetadata = await fetch(`${platform.baseUrl}/api/account/company/sso/metadata`);
    idp = await startSimpleSamlPhp({
      serviceProviderMetadata: await spMetadata.text(),
      users: [{ username: 'hana', password: IDP_PASSWORD, email: handlerEmail() }],
    });
    // The settings page that enters these has the SimpleSAMLphp journey.
    const idpMetadata = await (await fetch(idp.metadataUrl)).text();
    const certificate = /<md:KeyDescriptor use="signing">[\s\S]*?<ds:X509Certificate>([^<]+)</.exec(idpMetadata)![1]!;
    await saveSsoSettings(platform.baseUrl, adminToken, {
      enabled: true,
      entry_point: `${idp.baseUrl}/saml2/idp/SSOService.php`,
      idp_certificate: certificate,
      email_attribute: '',
    });
    context = await browser.newContext();
    handler = await openWatchedPage(context, platform.baseUrl);
    device = await addPrfAuthenticator(await webAuthnOf(context, handler.page), 'internal');
  });
  afterAll(async () => {
    await context?.close();
    await idp?.close();
    await browser?.close();
    await platform?.dispose();
  });

  /** The login page's SSO link, the work e-mail, SimpleSAMLphp's form, until Whistle's incidents page. */
  async function signInBySso(page: Page) {
    // A fresh IdP session each time, so its login form shows (Whistle's own session is on localhost).
    await context.clearCookies({ domain: '127.0.0.1' });
    await page.goto(`${platform.baseUrl}/company/login`);
    await page.getByRole('link', { name: /single sign-on/ }).click();
    await page.getByLabel('Email').fill(handlerEmail());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === idp.baseUrl, { timeout: 30_000 });
    await page.getByLabel('Username').fill('hana');
    await page.getByLabel('Password').fill(IDP_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/company\/incidents$/, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  }

  async function signOut(page: Page) {
    await page.getByRole('button', { name: /Account menu of/ }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
  }

  /** Signs in again by SSO and unlocks with whichever passkey the authenticators hold. */
  async function signInAndUnlockWithPasskey(page: Page) {
    await signInBySso(page);
    await page.getByRole('heading', { name: 'Unlock access to reports' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Unlock with a passkey' }).click();
  }

  /** The case assigned to the handler, opened from their list: its content decrypted in this browser. */
  async function readAssignedCase(page: Page) {
    await page.goto(`${platform.baseUrl}/company/incidents`);
    await page.getByText('1 case', { exact: true }).waitFor({ timeout: 30_000 });
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('link') })
      .first()
      .getByRole('link')
      .first()
      .click();
    await page.getByRole('heading', { name: /^Report #\d+$/, level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Report' }).getByText(DESCRIPTION).waitFor({ timeout: 30_000 });
  }

  test('when an SSO-only handler sets up their keys with a passkey and is approved, then after signing out and in again the passkey unlocks them and their case opens', async () => {
    const { page } = handler;
    await signInBySso(page);
    // No password to derive keys from: the page asks to set them up, a passkey first.
    await page.getByRole('heading', { name: 'Set up access to reports' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Use a passkey on this device' }).click();
    await page.getByRole('heading', { name: 'You have no access to reports yet' }).waitFor({ timeout: 30_000 });
    const [credentialId] = await device.credentialIds();
    expect(credentialId).toBeDefined();

    // What the server holds: the passkey's id and PRF salt, never its output; the fingerprint the page shows is the
    // one the admin compares before approving.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const own = (await (
      await fetch(`${platform.baseUrl}/api/account/profile/keys`, {
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
      })
    ).json()) as { person: { unlock: { method: string; credential_id?: string; label?: string }[] } };
    expect(own.person.unlock).toEqual([
      expect.objectContaining({ method: 'passkey', credential_id: credentialId, label: 'This device' }),
    ]);
    const adminToken = await apiToken(platform.baseUrl, company.adminEmail);
    const member = await teamMemberKeys(platform.baseUrl, adminToken, HANDLER);
    expect((await page.locator('.shell-keys-panel__fingerprint').innerText()).trim()).toBe(member.fingerprint);
    await approveReportAccess(platform.baseUrl, { email: company.adminEmail }, HANDLER);

    // A discloser reports; the admin assigns the case to the handler.
    const view = await publicView(platform.baseUrl, company.urlIdentifier);
    const filed = await postJson(
      platform.baseUrl,
      '/api/incident/',
      await reportBody(view, { description: DESCRIPTION }),
    );
    expect(filed.status).toBe(201);
    const { uuid } = (await filed.json()) as { uuid: string };
    await assignCase(platform.baseUrl, adminToken, uuid, [member.user_id]);

    // Signed out, nothing stays open in this browser; back by SSO, the passkey's PRF output unlocks the keys.
    await signOut(page);
    await signInAndUnlockWithPasskey(page);
    await page
      .getByRole('heading', { name: 'Unlock access to reports' })
      .waitFor({ state: 'detached', timeout: 30_000 });
    await readAssignedCase(page);
    expect(handler.pageErrors).toEqual([]);
    expect(handler.foreignRequests.filter((url) => !url.startsWith(idp.baseUrl))).toEqual([]);
  });

  test('when the handler adds a security key on the account page and removes the first passkey, then only the security key unlocks', async () => {
    const { page } = handler;
    await page.goto(`${platform.baseUrl}/company/settings/account`);
    const section = page.getByRole('region', { name: 'Unlock methods' });
    await section.getByText('Passkey “This device”', { exact: true }).waitFor({ timeout: 30_000 });

    // A second passkey on the device that holds the first would replace it there (same user id): refused, clearly.
    const [first] = await device.credentialIds();
    await section.getByLabel('Name of the passkey').fill('Same device');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section
      .getByRole('alert')
      .getByText('This device or security key already holds one of your passkeys.', { exact: false })
      .waitFor({ timeout: 30_000 });
    expect(await device.credentialIds()).toEqual([first]);
    expect(await section.getByText('Passkey “Same device”', { exact: true }).count()).toBe(0);

    const securityKey = await addPrfAuthenticator(await webAuthnOf(context, page), 'usb');

    // The device already holds one of the handler's passkeys: only the security key answers this ceremony.
    await device.setPresent(false);
    await section.getByLabel('Name of the passkey').fill('Security key');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByText('Passkey “Security key” added.').waitFor({ timeout: 30_000 });
    await device.setPresent(true);
    expect(await securityKey.credentialIds()).toHaveLength(1);
    expect(await device.credentialIds()).toEqual([first]);

    await section.getByRole('button', { name: 'Remove Passkey “This device”' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await section.getByText('Passkey “This device” removed.').waitFor();
    await section.getByText('Passkey “Security key”', { exact: true }).waitFor();
    // The list is read again after the message shows.
    await section.getByText('Passkey “This device”', { exact: true }).waitFor({ state: 'detached' });

    // The device's passkey opens nothing now (the page no longer asks for it); the security key does.
    await signOut(page);
    await securityKey.setPresent(false);
    await signInAndUnlockWithPasskey(page);
    await page
      .getByRole('alert')
      .getByText('The passkey was not used. Try again, or use another way to unlock.')
      .waitFor({ timeout: 60_000 });
    await securityKey.setPresent(true);
    await page.getByRole('button', { name: 'Unlock with a passkey' }).click();
    await page
      .getByRole('heading', { name: 'Unlock access to reports' })
      .waitFor({ state: 'detached', timeout: 30_000 });
    await readAssignedCase(page);
    expect(handler.pageErrors).toEqual([]);
  });
}
