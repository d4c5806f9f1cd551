import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import jsQR from 'jsqr';
import { simpleParser } from 'mailparser';
import { PNG } from 'pngjs';
import { companyPayload, postJson } from '../../src/company-fixtures';
import { startStandalone } from '../../src/standalone';

/** The text a QR code PNG encodes. */
function decodeQrCode(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

async function welcomeMailText(mailDir: string, to: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const file of await readdir(mailDir).catch(() => [] as string[])) {
      const mail = await simpleParser(await readFile(path.join(mailDir, file)));
      if (mail.to && !Array.isArray(mail.to) && mail.to.text.includes(to)) return mail.text ?? '';
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${to} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('when the standalone platform restarts on its data folder without PUBLIC_URL, then companies created before are still there, and links follow the port it listens on', async () => {
  const first = await startStandalone();
  try {
    const response = await postJson(first.baseUrl, '/api/account/company', await companyPayload());
    expect(response.status).toBe(201);
    const { url_identifier } = (await response.json()) as { url_identifier: string };
    await first.stop();

    // `PORT=<port> npm start` with no PUBLIC_URL: QR codes and e-mails must point at that port.
    const second = await startStandalone({ dataDir: first.dataDir, env: { PUBLIC_URL: '' } });
    try {
      const view = await fetch(`${second.baseUrl}/api/account/company/${url_identifier}`);
      expect(view.status).toBe(200);
      expect(await view.json()).toMatchObject({ url_identifier, name: 'Acme Corporation' });

      const origin = `http://localhost:${new URL(second.baseUrl).port}`;
      const qrCode = await fetch(`${second.baseUrl}/api/account/company/${url_identifier}/qrcode`);
      expect(decodeQrCode(Buffer.from(await qrCode.arrayBuffer()))).toBe(`${origin}/disclose/${url_identifier}`);

      const payload = await companyPayload();
      const created = await postJson(second.baseUrl, '/api/account/company', payload);
      const { url_identifier: newIdentifier } = (await created.json()) as { url_identifier: string };
      const welcome = await welcomeMailText(path.join(second.dataDir, 'mail'), payload.user_profile.email);
      expect(welcome).toContain(`${origin}/disclose/${newIdentifier}`);
      expect(welcome).toContain(`${origin}/company/login`);
      expect(welcome).not.toContain('localhost:8080');
    } finally {
      await second.stop();
    }
  } finally {
    await first.dispose();
  }
});
