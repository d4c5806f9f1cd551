import { deriveDiscloserAuthToken } from '@whistle/crypto';
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

  test('when one company receives more reports than allowed, then further reports to it get 429 and other companies are unaffected', async () => {
    const incident = await instance({ REPORT_LIMIT_PER_COMPANY: '2' });
    expect((await report(incident, first)).status).toBe(201);
    expect((await report(incident, first)).status).toBe(201);
    expect((await report(incident, first)).status).toBe(429);
    expect((await report(incident, second)).status).toBe(201);
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

  test("when a company's reports are guessed at too often, then its retrievals pause while other companies' continue", async () => {
    const incident = await instance({ RETRIEVAL_FAILURE_LIMIT_PER_COMPANY: '2' });
    const filed = await reportFor(second);
    const { retrieval_id } = (await (await postJson(`${incident.baseUrl}/api/incident/`, filed.body)).json()) as {
      retrieval_id: string;
    };
    const rightToken = await deriveDiscloserAuthToken(filed.credentials.discloserPassphrase);
    // Successful retrievals do not count against the company.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(
        (await getJson(retrievalUrl(incident.baseUrl, second.urlIdentifier, retrieval_id), rightToken)).status,
      ).toBe(200);
    }
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(
        (await getJson(retrievalUrl(incident.baseUrl, first.urlIdentifier, 'f'.repeat(20)), 'A'.repeat(43))).status,
      ).toBe(401);
    }
    expect(
      (await getJson(retrievalUrl(incident.baseUrl, first.urlIdentifier, 'f'.repeat(20)), 'A'.repeat(43))).status,
    ).toBe(429);
    expect((await getJson(retrievalUrl(incident.baseUrl, second.urlIdentifier, retrieval_id), rightToken)).status).toBe(
      200,
    );
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
