import { createHash, randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { createApiClient, isCommonPassword } from '@whistle/api-client';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { adminPassword, onboardCompany, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(testStacks)('abuse of passwords, invitations and old sessions on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-abuse-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-abuse-observer',
      events: ['user.sessions_revoked'],
      handle: async (event) => void published.push(event),
    });
    auth = await startAuth(test$.deps);
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  async function admin() {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const token = (await client.login(onboarded.email, adminPassword)).body.token as string;
    return { ...onboarded, client, token };
  }

  describe('the common-password check', () => {
    test('when a prefix is asked for, then the suffixes of exactly the listed passwords with that prefix come back', async () => {
      const hash = sha256('password123');
      const response = await fetch(`${auth.baseUrl}/api/account/password/common/${hash.slice(0, 2)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      const { suffixes } = (await response.json()) as { suffixes: string[] };
      expect(suffixes).toContain(hash.slice(2, 18));
      // A bucket of the ~49,000 listed passwords: about 190 of them, nothing like the whole list.
      expect(suffixes.length).toBeGreaterThan(100);
      expect(suffixes.length).toBeLessThan(300);
      expect(suffixes.every((suffix) => /^[0-9a-f]{16}$/.test(suffix))).toBe(true);
      expect(suffixes).not.toContain(sha256('a passphrase nobody has ever used 8d1f').slice(2, 18));
    });

    test('when the browser checks a password, then common ones are found, rare ones are not, and neither the password nor its hash reaches the log', async () => {
      const api = createApiClient({ baseUrl: auth.baseUrl });
      const rare = `a passphrase nobody uses ${randomUUID()}`;
      expect(await isCommonPassword(api, 'Password123')).toBe(true);
      expect(await isCommonPassword(api, 'qwertyuiop')).toBe(true);
      expect(await isCommonPassword(api, rare)).toBe(false);
      const logged = JSON.stringify(test$.deps.logger.entries);
      for (const secret of ['Password123', 'password123', rare, sha256('password123'), sha256(rare)])
        expect(logged).not.toContain(secret);
      expect(logged).not.toContain(sha256(rare).slice(0, 18));
    });

    test('when the prefix is not one (too long, a whole hash, not hex), then 400 that does not echo it', async () => {
      for (const prefix of ['abc', sha256('password123'), 'zz', 'AB']) {
        const response = await fetch(`${auth.baseUrl}/api/account/password/common/${prefix}`);
        expect(response.status).toBe(400);
        expect(await response.text()).not.toContain(prefix);
      }
    });
  });

  test('when an admin invites past the hourly limit, then 429, and another company’s admin still invites', async () => {
    const co = await admin();
    const invite = (token: string, domain: string) =>
      co.client.call('POST', '/api/account/company/user_profile/', {
        bearer: token,
        body: { email: `m-${randomUUID().slice(0, 8)}@${domain}`, full_name: 'Member', roles: ['HANDLER'] },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await invite(co.token, co.domain)).status);
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Resending an invitation mails too: it counts against the same limit.
    const resent = await co.client.call('POST', '/api/account/company/user_profile/invitation', {
      bearer: co.token,
      body: { uuid: randomUUID() },
    });
    expect(resent.status).toBe(429);
    const other = await admin();
    expect((await invite(other.token, other.domain)).status).toBe(201);
  });

  test('when a company’s admins together invite past the company’s hourly limit, then 429 for each of them', async () => {
    const co = await admin();
    // Two more admins, each invited and set up by the first.
    const admins = [co.token];
    for (let i = 0; i < 2; i += 1) {
      const email = `admin-${i}-${randomUUID().slice(0, 6)}@${co.domain}`;
      const since = auth.mails.length;
      const invited = await co.client.call('POST', '/api/account/company/user_profile/', {
        bearer: co.token,
        body: { email, full_name: `Admin ${i}`, roles: ['ADMIN'] },
      });
      expect(invited.status).toBe(201);
      const link = /token=([A-Za-z0-9_-]+)/.exec((await auth.mailTo(email, /invited/, since)).text)![1]!;
      expect((await co.client.acceptLink(link, adminPassword)).status).toBe(204);
      admins.push((await co.client.login(email, adminPassword)).body.token as string);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 51; i += 1) {
      const token = admins[Math.floor(i / 17)]!;
      const response = await co.client.call('POST', '/api/account/company/user_profile/', {
        bearer: token,
        body: { email: `c-${randomUUID().slice(0, 8)}@${co.domain}`, full_name: 'Member', roles: ['HANDLER'] },
      });
      statuses.push(response.status);
    }
    // Two invitations went to the admins themselves: 48 more reach the company's 50.
    expect(statuses.filter((status) => status === 201)).toHaveLength(48);
    expect(statuses.slice(48).every((status) => status === 429)).toBe(true);
  });

  test('when a password is changed or reset, or roles change, then user.sessions_revoked announces the cut-off', async () => {
    const co = await admin();
    const own = await co.client.call('GET', '/api/account/company/profile/', { bearer: co.token });
    const userId = own.body.uuid as string;
    const before = Date.now() - 1000;
    const changed = await co.client.changePassword(co.token, adminPassword, 'a brand new passphrase 42');
    expect(changed.status).toBe(200);
    const revoked = await waitFor(() => published.find((event) => event.payload.user_id === userId), {
      what: 'user.sessions_revoked',
    });
    expect(revoked.payload).toMatchObject({ user_id: userId, reason: 'password_changed' });
    expect(new Date(revoked.payload.not_before as string).getTime()).toBeGreaterThanOrEqual(before);
    expect(JSON.stringify(revoked)).not.toContain('a brand new passphrase 42');

    // A member's roles change: their sessions end too (their tokens carry the old roles).
    const email = `member-${randomUUID().slice(0, 6)}@${co.domain}`;
    const fresh = changed.body.token as string;
    const invited = await co.client.call('POST', '/api/account/company/user_profile/', {
      bearer: fresh,
      body: { email, full_name: 'Member', roles: ['HANDLER'] },
    });
    await co.client.call('PUT', '/api/account/company/user_profile/', {
      bearer: fresh,
      body: { uuid: invited.body.uuid, roles: ['REVIEWER'] },
    });
    const demoted = await waitFor(
      () =>
        published.find(
          (event) => event.payload.user_id === invited.body.uuid && event.payload.reason === 'roles_changed',
        ),
      { what: 'user.sessions_revoked for the role change' },
    );
    expect(demoted.actor).toEqual({ type: 'STAFF', user_id: userId });
  });
});
