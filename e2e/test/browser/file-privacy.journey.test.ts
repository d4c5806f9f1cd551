import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { tagJpeg, tagPng, tagWebp } from '@whistle/test-support/image-metadata';
import { openWatchedPage } from '../../src/browser';
import { companyPayload, onboardAndConfirm } from '../../src/company-fixtures';
import { translationOf } from '../../src/locales';
import { fillRequired, submitReport } from '../../src/report-form';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Issue #26: what a discloser's files say about them. Photos made in the page (JPEG, PNG, WebP) get a GPS
 * position, an author and device tags; the report is sent, and the files decrypted back hold none of them, with
 * the same pixels as the untagged images.
 */
let platform: StandalonePlatform;
let browser: Browser;
let urlIdentifier: string;
const MARKER = 'whereabouts-of-ada';

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  urlIdentifier = await onboardAndConfirm(platform, await companyPayload());
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

const en = (text: string | RegExp) => translationOf('mfe-disclose', 'disclose', text, 'en');
const WIDTH = 48;
const HEIGHT = 32;

/** An image drawn and encoded by the browser's own encoder, as base64. */
function drawImage(page: Page, type: string): Promise<string> {
  return page.evaluate(
    async ({ type, width, height }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d')!;
      for (let x = 0; x < width; x++)
        for (let y = 0; y < height; y++) {
          context.fillStyle = `rgb(${(x * 5) % 256}, ${(y * 7) % 256}, ${((x + y) * 3) % 256})`;
          context.fillRect(x, y, 1, 1);
        }
      const blob = await canvas.convertToBlob({ type, quality: 0.9 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    },
    { type, width: WIDTH, height: HEIGHT },
  );
}

/** The pixels the browser decodes from an image, as base64 of RGBA. */
function decodePixels(page: Page, bytes: Buffer, type: string): Promise<string> {
  return page.evaluate(
    async ({ base64, type }) => {
      const binary = atob(base64);
      const data = Uint8Array.from(binary, (char) => char.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([data], { type }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      let out = '';
      for (const byte of pixels) out += String.fromCharCode(byte);
      return `${bitmap.width}x${bitmap.height}:${btoa(out)}`;
    },
    { base64: bytes.toString('base64'), type },
  );
}

test('when a discloser attaches photos with GPS and author tags, then the decrypted files hold none and the same pixels', async () => {
  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.locator('a[href$="/create"]').click();
  await page.locator('textarea[name="description"]').waitFor();

  const plain = {
    jpeg: Buffer.from(await drawImage(page, 'image/jpeg'), 'base64'),
    png: Buffer.from(await drawImage(page, 'image/png'), 'base64'),
    webp: Buffer.from(await drawImage(page, 'image/webp'), 'base64'),
  };
  const files = [
    { name: 'photo.jpg', mimeType: 'image/jpeg', plain: plain.jpeg, buffer: tagJpeg(plain.jpeg, MARKER) },
    { name: 'screen.png', mimeType: 'image/png', plain: plain.png, buffer: tagPng(plain.png, MARKER) },
    {
      name: 'picture.webp',
      mimeType: 'image/webp',
      plain: plain.webp,
      buffer: tagWebp(plain.webp, MARKER, WIDTH, HEIGHT),
    },
  ];
  for (const file of files) {
    expect(file.buffer.includes(MARKER)).toBe(true);
    // The tagged files are valid images: the browser decodes them to the untagged pixels.
    expect(await decodePixels(page, file.buffer, file.mimeType)).toBe(
      await decodePixels(page, file.plain, file.mimeType),
    );
  }
  await page.locator('input[name="files"]').setInputFiles(files.map(({ plain: _, ...file }) => file));
  // A PDF is kept as it is, with what it can reveal.
  await page
    .locator('input[name="files"]')
    .setInputFiles({ name: 'memo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await page.getByText(/^PDF files can reveal their author/).waitFor();
  const notes = page.locator('.wh-files__note', { hasText: 'Removed before encryption:' });
  await notes.nth(2).waitFor();
  expect(await notes.count()).toBe(3);
  expect(await notes.first().textContent()).toContain('location (GPS)');

  await fillRequired(page, 'Photos of the storeroom');
  const code = await submitReport(page, en('Submit incident'));

  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.getByRole('button', { name: en('Check incident status') }).click();
  await page.locator('input[name="uniquePassword"]').fill(code);
  await page.locator('form.disclose-status button[type="submit"]').click();
  await page.getByRole('heading', { name: /^Report \d+$/ }).waitFor({ timeout: 30_000 });

  for (const file of files) {
    const item = page.locator('.wh-files li', { hasText: file.name });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('button', { name: /^Download/ }).click(),
    ]);
    const decrypted = await readFile((await download.path())!);
    expect({ name: file.name, marker: decrypted.includes(MARKER), exif: decrypted.includes('Exif') }).toEqual({
      name: file.name,
      marker: false,
      exif: false,
    });
    expect(await decodePixels(page, decrypted, file.mimeType)).toBe(
      await decodePixels(page, file.plain, file.mimeType),
    );
  }
  expect(pageErrors).toEqual([]);
  await context.close();
});
