/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, deleteSavedView, isApiError, listSavedViews, saveView } from '@whistle/api-client';
import type { SavedViewFilters } from '@whistle/contracts';
import { CASE_STATE, EXAMPLE_TOKEN, EXAMPLE_VIEW, PACT_DIR, SAVED_VIEW_STATE } from './fixtures';

const { datetime, eachLike, fromProviderState, string, uuid } = MatchersV3;

/**
 * The list's saved views (issue 23 item 2) as mfe-incidents expects them of the incident service; in the same pact
 * as incident.pact.test.ts (Pact merges the interactions), verified in services/incident/test/pact.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-incident',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const bearer = { Authorization: fromProviderState('Bearer ${staffToken}', `Bearer ${EXAMPLE_TOKEN}`) };
const client = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_TOKEN });
const created = datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2026-11-20T09:30:00.000Z');

describe('mfe-incidents → incident: saved views', () => {
  test('when a person lists their saved views, then each comes with its name and filters', async () => {
    await pact
      .addInteraction()
      .given(SAVED_VIEW_STATE)
      .uponReceiving("a person's saved views")
      .withRequest('GET', '/api/incident/saved-view/', (request) =>
        request.headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody(
          eachLike({
            uuid: uuid(EXAMPLE_VIEW),
            name: string('New cases'),
            filters: { status: eachLike('NEW'), sort: string('next_due_at') },
            created,
          }),
        ),
      )
      .executeTest(async (server) => {
        const views = await listSavedViews(client(server.url));
        expect(views[0]!.filters.status).toEqual(['NEW']);
      });
  });

  test('when a person saves the filters under a name, then the saved view comes back', async () => {
    const filters: SavedViewFilters = {
      status: ['NEW', 'ACKNOWLEDGED'],
      overdue: true,
      sort: '-created',
      page_size: 50,
    };
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a saved view of the list')
      .withRequest('POST', '/api/incident/saved-view/', (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ name: 'Overdue new', filters }),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({ uuid: uuid(EXAMPLE_VIEW), name: 'Overdue new', filters, created }),
      )
      .executeTest(async (server) => {
        expect((await saveView(client(server.url), { name: 'Overdue new', filters })).name).toBe('Overdue new');
      });
  });

  test('when a saved view is not what the list takes, then 400 names the field', async () => {
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a saved view with an unknown filter')
      .withRequest('POST', '/api/incident/saved-view/', (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ name: 'Words', filters: { description: 'money' } }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({ message: 'Invalid request body', errors: { filters: ['Unknown filter: description'] } }),
      )
      .executeTest(async (server) => {
        const failure = await saveView(client(server.url), {
          name: 'Words',
          filters: { description: 'money' } as never,
        }).catch((error: unknown) => error);
        expect(isApiError(failure) && failure.status).toBe(400);
      });
  });

  test('when a person deletes their saved view, then 204', async () => {
    await pact
      .addInteraction()
      .given(SAVED_VIEW_STATE)
      .uponReceiving("a person's saved view deleted")
      .withRequest(
        'DELETE',
        fromProviderState('/api/incident/saved-view/${viewUuid}', `/api/incident/saved-view/${EXAMPLE_VIEW}`),
        (request) => request.headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(204)
      .executeTest(async (server) => {
        await expect(deleteSavedView(client(server.url), EXAMPLE_VIEW)).resolves.toBeUndefined();
      });
  });

  test('when a view that is not theirs is deleted, then 404', async () => {
    const unknown = '7a1c5d1a-0000-4000-8000-000000000070';
    await pact
      .addInteraction()
      .given(SAVED_VIEW_STATE)
      .uponReceiving('an unknown saved view deleted')
      .withRequest('DELETE', `/api/incident/saved-view/${unknown}`, (request) =>
        request.headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(404, (response) => response.jsonBody({ message: 'Saved view not found' }))
      .executeTest(async (server) => {
        const failure = await deleteSavedView(client(server.url), unknown).catch((error: unknown) => error);
        expect(isApiError(failure) && failure.status).toBe(404);
      });
  });
});
