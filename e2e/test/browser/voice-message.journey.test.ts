import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { readTree } from '../../src/database-dump';
import { layoutProblems } from '../../src/layout-check';
import { fillRequired, submitReport } from '../../src/report-form';
import { STAFF_PASSWORD, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { chromium, standalone, startAll } from '../../src/set-up';

/**
 * Issue #26: a voice message with a disguised voice. Chromium's fake microphone plays a WAV made here (a 220 Hz
 * voice-like tone, rising and falling like syllables); on a 320 px phone, the discloser records it, hears the
 * disguised version, adds it to the report and sends it. What left the page and what the server stored hold no
 * audio in clear; an admin plays the decrypted voice message in the case page, and it is not the recorded voice:
 * its strongest pitch is none of the tone's harmonics. Then the discloser sends a voice message in the thread (sending
 * first while it is only heard, not added, sends nothing and says why), and the admin plays it in the case's timeline.
 */
const RECORDED_HZ = 220;
const INPUT_RATE = 48_000;
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
/** The first journey's secret code, for the second's message in the thread. */
let secretCode: string;
const fakeMicrophone = path.join(os.tmpdir(), `whistle-voice-${process.pid}.wav`);

/** `seconds` of the test voice as a 16-bit mono WAV, the format Chromium's fake capture reads. */
function testVoiceWav(seconds: number): Buffer {
  const count = seconds * INPUT_RATE;
  const wav = Buffer.alloc(44 + 2 * count);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + 2 * count, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(INPUT_RATE, 24);
  wav.writeUInt32LE(2 * INPUT_RATE, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(2 * count, 40);
  for (let n = 0; n < count; n++) {
    const t = n / INPUT_RATE;
    let value = 0;
    for (let harmonic = 1; harmonic <= 10; harmonic++)
      value += Math.sin(2 * Math.PI * RECORDED_HZ * harmonic * t) / harmonic;
    const syllables = 0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t);
    wav.writeInt16LE(Math.round(0.25 * value * syllables * 0x7fff), 44 + 2 * n);
  }
  return wav;
}

/** A 16-bit mono WAV's samples and rate. */
function samplesOf(wav: Buffer): { rate: number; samples: Float32Array } {
  expect(wav.subarray(0, 4).toString()).toBe('RIFF');
  expect(wav.subarray(8, 12).toString()).toBe('WAVE');
  const count = wav.readUInt32LE(40) / 2;
  return {
    rate: wav.readUInt32LE(24),
    samples: Float32Array.from({ length: count }, (_, n) => wav.readInt16LE(44 + 2 * n) / 0x8000),
  };
}

/** The strongest frequency between 60 and 1000 Hz (Goertzel, 2 Hz steps). */
function strongestPitch({ rate, samples }: { rate: number; samples: Float32Array }): number {
  let best = 0,
    bestPower = -1;
  for (let hz = 60; hz <= 1000; hz += 2) {
    const coefficient = 2 * Math.cos((2 * Math.PI * hz) / rate);
    let s1 = 0,
      s2 = 0;
    for (const x of samples) {
      const s = x + coefficient * s1 - s2;
      s2 = s1;
      s1 = s;
    }
    const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2;
    if (power > bestPower) [best, bestPower] = [hz, power];
  }
  return best;
}

/** Waits until the element knows its duration, and gives it (seconds). */
const durationOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate(
    (audio: HTMLAudioElement) =>
      new Promise<number>((resolve, reject) => {
        if (audio.readyState >= 1) return resolve(audio.duration);
        audio.addEventListener('loadedmetadata', () => resolve(audio.duration), { once: true });
        audio.addEventListener('error', () => reject(new Error('the audio cannot be read')), { once: true });
      }),
  );

/** Audio in clear, as a WAV, a WebM/Matroska container or an Opus stream would begin. */
const AUDIO_MARKERS = [Buffer.from('WAVE'), Buffer.from('OpusHead'), Buffer.from([0x1a, 0x45, 0xdf, 0xa3])];
const holdsAudio = (bytes: Buffer) => AUDIO_MARKERS.some((marker) => bytes.includes(marker));

beforeAll(async () => {
  await writeFile(fakeMicrophone, testVoiceWav(2));
  expect(strongestPitch(samplesOf(testVoiceWav(1)))).toBe(RECORDED_HZ);
  [platform, browser] = await startAll<[StandalonePlatform, Browser]>(
    standalone(),
    chromium([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-audio-capture=${fakeMicrophone}`,
      '--autoplay-policy=no-user-gesture-required',
    ]),
  );
  company = await onboardCompany(platform);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

test('when a discloser records a voice message on a phone, then only the disguised voice goes, encrypted, and an admin plays it on the case page', async () => {
  const discloserContext = await browser.newContext({
    viewport: { width: 320, height: 640 },
    hasTouch: true,
    isMobile: true,
    permissions: ['microphone'],
  });
  const discloser = await openWatchedPage(discloserContext, platform.baseUrl);
  const page = discloser.page;
  const sent: Buffer[] = [];
  page.on('request', (request) => {
    const body = request.postDataBuffer();
    if (body) sent.push(body);
  });
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await page.locator('a[href$="/create"]').click();
  await page.locator('textarea[name="description"]').waitFor();
  await fillRequired(page, 'The foreman said it on the phone');

  const recorder = page.getByRole('group', { name: 'Voice message' });
  await recorder.getByText('The browser will then ask you to allow the microphone.').waitFor();
  await recorder.getByRole('button', { name: 'Record a voice message' }).click();
  const timer = recorder.getByRole('timer', { name: 'Recording time' });
  await timer.waitFor();
  // The meter moves with the fake microphone's sound, and the timer counts.
  await page.waitForFunction(
    () => ((document.querySelector('meter.wh-voice__meter') as HTMLMeterElement | null)?.value ?? 0) > 0.05,
  );
  await recorder.getByText(/^0:0[3-9] \/ 10:00$/).waitFor({ timeout: 10_000 });
  expect(await layoutProblems(page)).toEqual([]);
  await recorder.getByRole('button', { name: 'Stop recording' }).click();

  const player = '.wh-voice audio[aria-label="Disguised voice message"]';
  await page.locator(player).waitFor({ timeout: 30_000 });
  const recordedSeconds = await durationOf(page, player);
  expect(recordedSeconds).toBeGreaterThan(2);
  // Another strength disguises the recording again, from the samples kept in the page.
  const mediumUrl = await page.locator(player).getAttribute('src');
  await recorder.getByRole('radio', { name: 'Strong: a whisper, harder to recognise' }).check();
  await page.waitForFunction(
    ([selector, before]) => {
      const audio = document.querySelector(selector) as HTMLAudioElement | null;
      return !!audio && audio.src !== before;
    },
    [player, mediumUrl] as const,
  );
  expect(await durationOf(page, player)).toBeCloseTo(recordedSeconds, 1);
  // On a 320 px screen: nothing cut or wider than the page, and the recorder's buttons are 44 px targets.
  expect(await layoutProblems(page)).toEqual([]);
  const heights = await recorder
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().height));
  expect(heights).toHaveLength(3);
  for (const height of heights) expect(height).toBeGreaterThanOrEqual(44);

  await recorder.getByRole('button', { name: 'Add to the files' }).click();
  await recorder.getByText('The disguised voice message was added to the files.').waitFor();
  const voiceFile = (await page.locator('.wh-files__name', { hasText: /^voice-message-[\d-]+\.wav$/ }).textContent())!;
  secretCode = await submitReport(page, 'Submit incident');
  // Nothing sent from the page held audio in clear: the voice message went up encrypted, the recording not at all.
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.filter(holdsAudio)).toEqual([]);
  expect(discloser.pageErrors).toEqual([]);

  const staffContext = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
  const staff = await openWatchedPage(staffContext, platform.baseUrl);
  await staff.page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(staff.page, company.adminEmail, STAFF_PASSWORD);
  await staff.page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await staff.page.getByRole('row').filter({ hasText: 'New' }).getByRole('link').first().click();
  await staff.page.getByRole('heading', { name: 'Report #1', level: 1 }).waitFor();
  const report = staff.page.getByRole('region', { name: 'Report' });
  await report.getByRole('button', { name: `Preview ${voiceFile}` }).click();
  const dialog = staff.page.getByRole('dialog', { name: voiceFile });
  const staffPlayer = `[role="dialog"] audio[aria-label="${voiceFile}"]`;
  await dialog.locator('audio').waitFor();
  expect(await durationOf(staff.page, staffPlayer)).toBeGreaterThan(2);
  // It plays: the browser decodes the decrypted WAV and its clock moves.
  await staff.page.locator(staffPlayer).evaluate((audio: HTMLAudioElement) => audio.play());
  await staff.page.waitForFunction(
    (selector) => (document.querySelector(selector) as HTMLAudioElement).currentTime > 0.2,
    staffPlayer,
  );
  // The file the admin hears, downloaded from the dialog: the disguised voice, not the recorded one.
  const [download] = await Promise.all([
    staff.page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download' }).click(),
  ]);
  const decrypted = await readFile((await download.path())!);
  const heard = samplesOf(decrypted);
  expect(heard.rate).toBe(16_000);
  expect(heard.samples.length / heard.rate).toBeCloseTo(recordedSeconds, 1);
  const pitch = strongestPitch(heard);
  const nearestHarmonic = Math.round(pitch / RECORDED_HZ) * RECORDED_HZ;
  expect({ pitch, offHarmonic: Math.abs(pitch - nearestHarmonic) > 10 }).toEqual({ pitch, offHarmonic: true });
  expect(staff.pageErrors).toEqual([]);
  await discloserContext.close();
  await staffContext.close();

  // What the server stored: the voice message as ciphertext, no audio in clear anywhere.
  const objects = await readTree(path.join(platform.dataDir, 'objects'));
  expect(objects.length).toBeGreaterThanOrEqual(1);
  for (const { file, bytes } of objects) {
    expect({ file, audio: holdsAudio(bytes), decrypted: bytes.includes(decrypted.subarray(44, 4044)) }).toEqual({
      file,
      audio: false,
      decrypted: false,
    });
  }
});

test('when a discloser records a voice message in the thread, then the admin plays it in the case timeline', async () => {
  // Without the page's CSP, for axe-core's script only: the first journey heard the preview under it.
  const discloserContext = await browser.newContext({ permissions: ['microphone'], bypassCSP: true });
  const discloser = await openWatchedPage(discloserContext, platform.baseUrl);
  const page = discloser.page;
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await page.locator('input[name="uniquePassword"]').fill(secretCode);
  await page.locator('form.disclose-status button[type="submit"]').click();
  await page.getByRole('heading', { name: /^Report \d+$/ }).waitFor({ timeout: 30_000 });
  const reply = page.locator('form.wh-reply');
  await reply.locator('textarea[name="text"]').fill('The rest, said aloud');
  const recorder = reply.getByRole('group', { name: 'Voice message' });
  await recorder.getByRole('button', { name: 'Record a voice message' }).click();
  await recorder.getByText(/^0:0[2-9] \/ 10:00$/).waitFor({ timeout: 10_000 });
  await recorder.getByRole('button', { name: 'Stop recording' }).click();
  await recorder.getByLabel('Disguised voice message').waitFor({ timeout: 30_000 });
  // The recorder with its strengths, player and buttons: no serious accessibility violation.
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  // Sent while the disguised voice is only heard, not added: nothing goes, the recorder says why and takes the focus.
  const posts: string[] = [];
  page.on('request', (request) => request.method() === 'POST' && posts.push(new URL(request.url()).pathname));
  await reply.getByRole('button', { name: 'Send' }).click();
  await recorder
    .getByText('Nothing was sent: this voice message is not among the files yet.', { exact: false })
    .waitFor();
  const add = recorder.getByRole('button', { name: 'Add to the files' });
  expect(await add.evaluate((button) => button === document.activeElement)).toBe(true);
  // Not sending (a sending marks the form busy in the same render as it starts), and nothing was posted.
  expect(await reply.getAttribute('aria-busy')).toBeNull();
  expect(posts).toEqual([]);
  await add.click();
  expect(await recorder.getByText('Nothing was sent', { exact: false }).count()).toBe(0);
  const voiceFile = (await reply.locator('.wh-files__name', { hasText: /^voice-message-[\d-]+\.wav$/ }).textContent())!;
  await reply.getByRole('button', { name: 'Send' }).click();
  // Sent: the form is cleared, and the thread shows the message with its file.
  await page.locator('.wh-thread .wh-files__name', { hasText: voiceFile }).waitFor({ timeout: 30_000 });
  expect(await reply.locator('.wh-files__name').count()).toBe(0);
  expect(posts).toContain('/api/incident/message/');
  expect(discloser.pageErrors).toEqual([]);

  const staffContext = await browser.newContext({ locale: 'en-US' });
  const staff = await openWatchedPage(staffContext, platform.baseUrl);
  await staff.page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(staff.page, company.adminEmail, STAFF_PASSWORD);
  await staff.page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await staff.page.getByRole('row').getByRole('link').first().click();
  await staff.page.getByRole('heading', { name: 'Report #1', level: 1 }).waitFor();
  await staff.page.getByText('The rest, said aloud').waitFor();
  await staff.page.getByRole('button', { name: `Preview ${voiceFile}` }).click();
  const staffPlayer = `[role="dialog"] audio[aria-label="${voiceFile}"]`;
  await staff.page.locator(staffPlayer).waitFor();
  expect(await durationOf(staff.page, staffPlayer)).toBeGreaterThan(1.5);
  await staff.page.locator(staffPlayer).evaluate((audio: HTMLAudioElement) => audio.play());
  await staff.page.waitForFunction(
    (selector) => (document.querySelector(selector) as HTMLAudioElement).currentTime > 0.2,
    staffPlayer,
  );
  expect(staff.pageErrors).toEqual([]);
  await discloserContext.close();
  await staffContext.close();
});
