#!/usr/bin/env node
// Screenshots of every staff page (docs/ui.md): the built standalone platform in a fresh data folder (PGlite), one
// onboarded company with a few reports (encrypted as the discloser's browser does) and an invited team member, the
// admin signed in through the login page in Chromium; each page at 1366×768 (a laptop) and 768×1024 (a tablet), at
// device scale 1, into docs/ui/<UI_SHOTS, default "after">/<page>-<width>.png. The full page is captured (not only
// the viewport): what is cut off or pushed wider shows. With Debian's `pngquant` on the PATH the files are reduced
// to 64 colours (a third of the size; docs/ui.md keeps them small). Requires `npm run build` first.
//   node load/bench/staff-screenshots.mjs before
import { spawnSync } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import crypto from '@whistle/crypto';
import { onboard, root, startStandalone } from './platform.mjs';
import { signIn } from './staff-keys.mjs';

const { createIncidentCredentials, encryptReportFields } = crypto;
const folder = path.join(root, 'docs', 'ui', process.argv[2] || process.env.UI_SHOTS || 'after');
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 768, height: 1024 },
];
const REPORTS = 4;

const json = async (response) => {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
};
const send = (method, url, body, token) =>
  fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** `REPORTS` reports to the company, with words in their fields; resolves their uuids. */
async function sendReports(baseUrl, urlIdentifier) {
  const view = await json(await fetch(`${baseUrl}/api/account/company/${urlIdentifier}`));
  const category = view.categories.find((candidate) => candidate.parent_uuid === null);
  const uuids = [];
  for (let i = 0; i < REPORTS; i += 1) {
    const credentials = await createIncidentCredentials(view.public_key);
    const report = {
      url_identifier: view.url_identifier,
      category_uuids: [category.uuid],
      location_uuid: view.locations[0].uuid,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, {
        description: `Invoices approved without any delivery, batch ${i + 1}`,
        full_name: `Reporter ${i + 1}`,
      }),
      report_anonymously: i % 2 === 0,
    };
    // The incident service learns of the new company from auth's event, maybe after onboarding answered.
    for (let attempt = 0; ; attempt += 1) {
      const answer = await send('POST', `${baseUrl}/api/incident/`, report);
      if (answer.status === 201) {
        uuids.push((await answer.json()).uuid);
        break;
      }
      if (attempt === 50) throw new Error(`the report answered ${answer.status}: ${await answer.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return uuids;
}

const platform = await startStandalone({ REPORT_LIMIT_PER_CLIENT: '100' }, { stdout: 'ignore' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const { baseUrl } = platform;
  const company = await onboard(platform, 0);
  const [firstCase] = await sendReports(baseUrl, company.urlIdentifier);
  const token = await signIn(baseUrl, company.email, company.password);
  const invited = await send(
    'POST',
    `${baseUrl}/api/account/company/user_profile/`,
    { email: `handler@${company.email.split('@')[1]}`, full_name: 'Grace Hopper', roles: ['HANDLER'] },
    token,
  );
  if (invited.status !== 201) throw new Error(`the invitation answered ${invited.status}`);

  const pages = [
    ['incidents', '/company/incidents', { role: 'heading', name: 'Incidents' }],
    ['case', `/company/incidents/${firstCase}`, { role: 'heading', name: /^Report #\d+/ }],
    ['record-report', '/company/incidents/record', { role: 'heading', level: 1 }],
    ['team', '/company/team', { role: 'heading', name: 'Team' }],
    ['team-invite', '/company/team/add', { role: 'heading', level: 1 }],
    ['reporting', '/company/reporting', { role: 'heading', name: 'Reporting' }],
    ...[
      'account',
      'categories',
      'locations',
      'company',
      'deadline',
      'notifications',
      'reply-templates',
      'retention',
      'audit-log',
      'sso',
      'security',
    ].map((page) => [`settings-${page}`, `/company/settings/${page}`, { role: 'heading', level: 1 }]),
    ['settings-category-add', '/company/settings/categories/add', { role: 'heading', level: 1 }],
  ];
  await mkdir(folder, { recursive: true });
  for (const viewport of VIEWPORTS) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/company/login`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.screenshot({ path: path.join(folder, `login-${viewport.width}.png`), fullPage: true });
    await page.getByLabel('Email').fill(company.email);
    await page.getByLabel('Password').fill(company.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    for (const [name, address, heading] of pages) {
      await page.goto(`${baseUrl}${address}`);
      const { role, ...options } = heading;
      await page.getByRole(role, options).first().waitFor({ timeout: 30_000 });
      // Decrypted content, charts and lists settle after the heading: wait for the network, then a moment.
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await page.waitForTimeout(800);
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wider > 0) console.log(`${name} at ${viewport.width}px: the page is ${wider}px wider than the window`);
      await page.screenshot({ path: path.join(folder, `${name}-${viewport.width}.png`), fullPage: true });
    }
    await context.close();
  }
  const shots = (await readdir(folder)).filter((file) => file.endsWith('.png'));
  const quantized = spawnSync('pngquant', ['--force', '--ext', '.png', '--speed', '3', '64', ...shots], {
    cwd: folder,
  });
  if (quantized.error) console.log('pngquant is not installed: the screenshots keep all their colours');
  console.log(`screenshots in ${path.relative(root, folder)}`);
} finally {
  await browser.close();
  await platform.stop();
}
