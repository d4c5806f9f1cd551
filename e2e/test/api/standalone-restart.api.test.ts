import { companyPayload, postJson } from '../../src/company-fixtures';
import { startStandalone } from '../../src/standalone';

test('when the standalone platform restarts on its data folder, then companies created before are still there', async () => {
  const first = await startStandalone();
  let dataDir = first.dataDir;
  try {
    const response = await postJson(first.baseUrl, '/api/account/company', await companyPayload());
    expect(response.status).toBe(201);
    const { url_identifier } = (await response.json()) as { url_identifier: string };
    await first.stop();

    const second = await startStandalone({ dataDir });
    dataDir = second.dataDir;
    try {
      const view = await fetch(`${second.baseUrl}/api/account/company/${url_identifier}`);
      expect(view.status).toBe(200);
      expect(await view.json()).toMatchObject({ url_identifier, name: 'Acme Corporation' });
    } finally {
      await second.dispose();
    }
  } finally {
    await first.dispose();
  }
});
