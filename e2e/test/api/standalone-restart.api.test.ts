import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { companyPayload, confirmRegistration, onboardAndConfirm, postJson } from '../../src/company-fixtures';
import { CONFIRMATION_SUBJECT, confirmationLinkIn } from '../../src/mailbox';
import { startStandalone } from '../../src/standalone';

/** The text a QR code PNG encodes. */
function decodeQrCode(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

test('when the standalone platform restarts on its data folder without PUBLIC_URL, then companies created before are still there, and links follow the port it listens on', async () => {
  const first = await startStandalone({ fresh: true });
  try {
    const url_identifier = await onboardAndConfirm(first, await companyPayload());
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
      expect(created.status).toBe(201);
      const confirmation = await second.mailbox(payload.user_profile.email, CONFIRMATION_SUBJECT);
      expect(confirmationLinkIn(confirmation).startsWith(`${origin}/company/onboarding/confirm#token=`)).toBe(true);
      const newIdentifier = await confirmRegistration(second.baseUrl, second.mailbox, payload.user_profile.email);
      const welcome = (await second.mailbox(payload.user_profile.email, /is ready$/)).text;
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
