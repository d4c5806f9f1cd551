import { deriveDiscloserAuthToken, solveProofOfWork } from '@whistle/crypto';
import { metricsRegistry } from '@whistle/service-kit';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { generateDiscloserTokenKeys } from '@whistle/tokens/testing';
import {
  getJson,
  postJson,
  prepareProducer,
  reportFor,
  retrievalUrl,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
} from './support';

describe.each(testStacks)('abuse limits of the incident service on %s', (stack) => {
  let test$: TestDependencies;
  let first: SeededCompany;
  let second: SeededCompany;
  const running: RunningIncident[] = [];

  /** An instance with its own counters and the given limits (the rest roomy). */
  async function instance(limits: Record<string, string>) {
    const started = await startIncident(test$.deps, limits, { replica: running.length > 0 });
    running.push(started);
    return started;
  }
  const surges = async () =>
    (await metricsRegistry.getSingleMetric('whistle_incident_retrieval_failure_surges_total')!.get()).values[0]
      ?.value ?? 0;
  const reportsOf = async (company: SeededCompany) =>
    (
      await test$.deps.db.query<{ count: number }>(
        'select count(*)::int as count from incident.incident where company_id = $1',
        [company.companyId],
      )
    ).rows[0]!.count;
  const report = async (incident: RunningIncident, company: SeededCompany) =>
    postJson(`${incident.baseUrl}/api/incident/`, (await reportFor(company)).body);

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    // Started once so the read model exists before the instances under test share it.
    await instance({});
    first = await seedCompany(test$.deps);
    second = await seedCompany(test$.deps);
  });
  afterAll(async () => {
    for (const each of running) await each.close();
    await test$?.dispose();
  });

  test('when one client sends more reports than allowed, then it gets 429 with a clear message, whatever the company', async () => {
    const incident = await instance({ REPORT_LIMIT_PER_CLIENT: '2' });
    expect((await report(incident, first)).status).toBe(201);
    expect((await report(incident, second)).status).toBe(201);
    const refused = await report(incident, second);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too many reports were sent, please try again later' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('when one client tries too many secret codes, then even a right one gets 429', async () => {
    const incident = await instance({ RETRIEVAL_LIMIT_PER_CLIENT: '3' });
    const filed = await reportFor(first);
    const { retrieval_id } = (await (await postJson(`${incident.baseUrl}/api/incident/`, filed.body)).json()) as {
      retrieval_id: string;
    };
    const rightToken = await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(
        (await getJson(retrievalUrl(incident.baseUrl, first.urlIdentifier, `${'0'.repeat(19)}${attempt}`), rightToken))
          .status,
      ).toBe(401);
    }
    const refused = await getJson(retrievalUrl(incident.baseUrl, first.urlIdentifier, retrieval_id), rightToken);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too many attempts to open a report, please try again later' });
  });

  test('when ten addresses fail retrievals of a company as often as they may, then another discloser of it still opens their report, and an alert with counts only is raised', async () => {
    // The deployed defaults: 20 attempts per client per 15 minutes, an alert at 200 failures per company.
    const incident = await instance({ RETRIEVAL_LIMIT_PER_CLIENT: '20' });
    const filed = await reportFor(first);
    const { retrieval_id } = (await (await postJson(`${incident.baseUrl}/api/incident/`, filed.body)).json()) as {
      retrieval_id: string;
    };
    const rightToken = await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase);
    const surgesBefore = await surges();
    const attackers = Array.from({ length: 10 }, (_, i) => `10.66.${i}.1`);
    const failures = await Promise.all(
      attackers.map(async (client) => {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 20; attempt += 1) {
          const wrong = `${'e'.repeat(16)}${String(attempt).padStart(4, '0')}`;
          statuses.push(
            (
              await getJson(retrievalUrl(incident.baseUrl, first.urlIdentifier, wrong), 'A'.repeat(43), {
                'x-forwarded-for': client,
              })
            ).status,
          );
        }
        return statuses;
      }),
    );
    expect(failures.flat()).toEqual(Array(200).fill(401));
    // Each attacker is held by its own limit...
    expect(
      (
        await getJson(retrievalUrl(incident.baseUrl, first.urlIdentifier, 'e'.repeat(20)), 'A'.repeat(43), {
          'x-forwarded-for': attackers[0]!,
        })
      ).status,
    ).toBe(429);
    // ...and the company's disclosers are not.
    const opened = await getJson(retrievalUrl(incident.baseUrl, first.urlIdentifier, retrieval_id), rightToken, {
      'x-forwarded-for': '10.77.0.1',
    });
    expect(opened.status).toBe(200);
    expect((await surges()) - surgesBefore).toBe(1);
    const alerts = test$.deps.logger.entries.filter((entry) => /Surge of failed report retrievals/.test(entry.message));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.level).toBe('warn');
    // Counts only: no address, no code, no company.
    expect(JSON.stringify(alerts[0]!.fields)).not.toMatch(/10\.66\.|eeee|AAAA|acme/);
    expect(alerts[0]!.fields).toMatchObject({ failures: 200, window_minutes: 15 });
  });

  describe('report intake under a flood', () => {
    // Work from the 31st report of the hour; little of it here, so the test stays fast. Each sender sends ten reports,
    // with room for a try whose challenge the volume outgrew meanwhile (a refused try counts for its client too).
    const pow = {
      REPORT_LIMIT_PER_CLIENT: '12',
      POW_FREE_REPORTS_PER_COMPANY: '30',
      POW_BASE_DIFFICULTY: '1',
      POW_MAX_DIFFICULTY: '3',
    };
    const challengeOf = async (incident: RunningIncident, company: SeededCompany, client: string) => {
      const response = await getJson(
        `${incident.baseUrl}/api/incident/challenge?${new URLSearchParams({ url_identifier: company.urlIdentifier })}`,
        undefined,
        { 'x-forwarded-for': client },
      );
      expect(response.status).toBe(200);
      return (await response.json()) as { challenge: string; difficulty: number; expires: string };
    };
    const solved = async (incident: RunningIncident, company: SeededCompany, client: string) => {
      const { challenge, difficulty } = await challengeOf(incident, company, client);
      return { challenge, nonce: await solveProofOfWork(challenge, difficulty) };
    };
    const send = (incident: RunningIncident, body: object, client: string, headers: Record<string, string> = {}) =>
      postJson(`${incident.baseUrl}/api/incident/`, body, { 'x-forwarded-for': client, ...headers });

    // 300 reports, each with an Argon2id proof solved here: minutes on a loaded 2-core machine, not the default 30 s.
    test('when thirty senders send as many reports as each may, then they pay a growing work and a discloser still reports', async () => {
      const incident = await instance(pow);
      const company = await seedCompany(test$.deps);
      expect((await challengeOf(incident, company, '10.88.0.1')).difficulty).toBe(0);
      const senders = Array.from({ length: 30 }, (_, i) => `10.88.${i}.1`);
      const statuses = await Promise.all(
        senders.map(async (client) => {
          const { body } = await reportFor(company);
          const answers: number[] = [];
          for (let sent = 0; sent < 10; sent += 1) {
            let answer = await send(
              incident,
              { ...body, proof_of_work: await solved(incident, company, client) },
              client,
            );
            // The volume may have doubled since the challenge: the page then solves a new one, and so does a sender.
            if (answer.status === 400 && /solve a new one/.test(await answer.clone().text()))
              answer = await send(
                incident,
                { ...body, proof_of_work: await solved(incident, company, client) },
                client,
              );
            answers.push(answer.status);
          }
          return answers;
        }),
      );
      expect(statuses.flat()).toEqual(Array(300).fill(201));
      const late = await challengeOf(incident, company, '10.89.0.1');
      expect(late.difficulty).toBeGreaterThan(0);
      const { body } = await reportFor(company);
      const withoutWork = await send(incident, body, '10.89.0.1');
      expect(withoutWork.status).toBe(400);
      expect(((await withoutWork.json()) as { errors: object }).errors).toHaveProperty('proof_of_work');
      const { challenge, difficulty } = late;
      const filed = await send(
        incident,
        { ...body, proof_of_work: { challenge, nonce: await solveProofOfWork(challenge, difficulty) } },
        '10.89.0.1',
      );
      expect(filed.status).toBe(201);
    }, 180_000);

    describe('when work is required', () => {
      let incident: RunningIncident;
      let company: SeededCompany;
      let client = 0;
      const fresh = () => `10.90.${Math.floor(client / 250)}.${(client++ % 250) + 1}`;
      beforeAll(async () => {
        incident = await instance({ ...pow, POW_FREE_REPORTS_PER_COMPANY: '1' });
        company = await seedCompany(test$.deps);
        const { body } = await reportFor(company);
        expect((await send(incident, body, fresh())).status).toBe(201);
      });
      const refusal = async (response: Response) => ({
        status: response.status,
        errors: ((await response.json()) as { errors?: Record<string, string[]> }).errors,
      });

      test('then a report without a solution is refused with 400 naming proof_of_work, and nothing is stored', async () => {
        const { body } = await reportFor(company);
        const before = await reportsOf(company);
        expect(await refusal(await send(incident, body, fresh()))).toEqual({
          status: 400,
          errors: { proof_of_work: ['Proof of work required: solve a challenge from GET /api/incident/challenge'] },
        });
        expect(await reportsOf(company)).toBe(before);
      });

      test('then a wrong nonce, a forged challenge or another company’s challenge is refused with 400', async () => {
        const { body } = await reportFor(company);
        const { challenge, difficulty } = await challengeOf(incident, company, fresh());
        expect(difficulty).toBeGreaterThan(0);
        const right = Number(await solveProofOfWork(challenge, difficulty));
        // The nonces before the first solution all fail, by construction; right + n may pass, so look for one.
        let wrong = right - 1;
        if (wrong < 0) {
          const { verifyProofOfWork } = await import('@whistle/crypto');
          wrong = right + 1;
          while (await verifyProofOfWork(challenge, String(wrong), difficulty)) wrong += 1;
        }
        expect(
          await refusal(await send(incident, { ...body, proof_of_work: { challenge, nonce: String(wrong) } }, fresh())),
        ).toEqual({ status: 400, errors: { proof_of_work: ['Invalid proof of work'] } });
        const forged = challenge.replace(/^\d+\./, '0.');
        expect(
          await refusal(await send(incident, { ...body, proof_of_work: { challenge: forged, nonce: '0' } }, fresh())),
        ).toEqual({ status: 400, errors: { proof_of_work: ['Invalid challenge'] } });
        const elsewhere = await solved(incident, second, fresh());
        expect(await refusal(await send(incident, { ...body, proof_of_work: elsewhere }, fresh()))).toEqual({
          status: 400,
          errors: { proof_of_work: ['Invalid challenge'] },
        });
      });

      test('then a solution serves one report: replayed for another, 400; the same report sent again with its idempotency key, its first answer', async () => {
        const solution = await solved(incident, company, fresh());
        const { body } = await reportFor(company);
        const key = { 'idempotency-key': 'k'.repeat(30) };
        const first$ = await send(incident, { ...body, proof_of_work: solution }, fresh(), key);
        expect(first$.status).toBe(201);
        const again = await send(incident, { ...body, proof_of_work: solution }, fresh(), key);
        expect(again.status).toBe(201);
        expect(await again.json()).toEqual(await first$.json());
        const other = await reportFor(company);
        expect(await refusal(await send(incident, { ...other.body, proof_of_work: solution }, fresh()))).toEqual({
          status: 400,
          errors: { proof_of_work: ['Challenge already used'] },
        });
      });
    });
  });
});

describe('abuse limits across replicas of one deployment (PostgreSQL)', () => {
  let test$: TestDependencies;
  const running: RunningIncident[] = [];
  afterAll(async () => {
    for (const each of running) await each.close();
    await test$?.dispose();
  });

  test('when a client sends reports to two replicas, then its budget is counted across both and survives a new replica', async () => {
    test$ = await createTestDependencies('postgres+rabbitmq', ['incident']);
    await prepareProducer(test$.deps);
    // One deployment: every replica has the same secrets, hence the same hashed keys.
    const deployment = {
      DISCLOSER_TOKEN_PRIVATE_KEY: generateDiscloserTokenKeys().privateKeyPem,
      REPORT_LIMIT_PER_CLIENT: '2',
    };
    const replica = async () => {
      const started = await startIncident(test$.deps, deployment, { replica: running.length > 0 });
      running.push(started);
      return started;
    };
    const [a, b] = [await replica(), await replica()];
    const company = await seedCompany(test$.deps);
    const report = async (incident: RunningIncident) =>
      postJson(`${incident.baseUrl}/api/incident/`, (await reportFor(company)).body);
    expect((await report(a)).status).toBe(201);
    expect((await report(b)).status).toBe(201);
    expect((await report(a)).status).toBe(429);
    expect((await report(b)).status).toBe(429);
    expect((await report(await replica())).status).toBe(429);
  });
});
