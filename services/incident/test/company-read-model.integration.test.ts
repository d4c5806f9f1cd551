import { randomUUID } from 'node:crypto';
import { createOutbox } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { prepareProducer, startIncident, type RunningIncident } from './support';

describe.each(testStacks)('incident read model of companies on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  test('when a company is created, then its labels and locations are known to the incident service', async () => {
    const companyId = randomUUID();
    const fraud = randomUUID();
    const bribery = randomUUID();
    const office = randomUUID();
    const envelope = await test$.deps.db.transaction((tx) =>
      createOutbox('producer').add(tx, {
        name: 'company.created',
        company_id: companyId,
        payload: {
          company_id: companyId,
          url_identifier: 'umbrella-zz99yy',
          name: 'Umbrella',
          country: 'GB',
          created_by: { user_id: randomUUID(), email: 'a@umbrella.example' },
          categories: [
            { uuid: fraud, name: 'Fraud', parent_uuid: null, is_active: true },
            { uuid: bribery, name: 'Bribery', parent_uuid: fraud, is_active: true },
          ],
          locations: [{ uuid: office, name: 'Head office', is_active: true }],
        },
      }),
    );
    await test$.deps.bus.publish(envelope);
    const categories = await waitFor(
      async () => {
        const { rows } = await test$.deps.db.query<{ id: string; parent_id: string | null }>(
          'select id, parent_id from incident.category where company_id = $1 order by name',
          [companyId],
        );
        return rows.length === 2 ? rows : undefined;
      },
      { what: 'categories in the read model' },
    );
    expect(categories).toEqual([
      { id: bribery, parent_id: fraud },
      { id: fraud, parent_id: null },
    ]);
    const { rows: locations } = await test$.deps.db.query(
      'select id, name from incident.location where company_id = $1',
      [companyId],
    );
    expect(locations).toEqual([{ id: office, name: 'Head office' }]);
    const { rows: company } = await test$.deps.db.query(
      'select next_report_number from incident.company where id = $1',
      [companyId],
    );
    expect(company).toEqual([{ next_report_number: 1 }]);
  });
});
