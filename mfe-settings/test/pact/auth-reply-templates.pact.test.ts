/**
 * @jest-environment node
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { createReplyTemplate, deleteReplyTemplate, listReplyTemplates, updateReplyTemplate } from '@whistle/api-client';
import { ADMIN, api, authPact, failure, headers, STATE } from './auth-fixtures';

const { datetime, eachLike, fromProviderState, string, uuid } = MatchersV3;

/** The admins' reply templates (issue 23 item 4) as settings expect them of auth. */
const pact = authPact();
const TEMPLATE_STATE = `staff member ${ADMIN} has a reply template`;
const EXAMPLE_TEMPLATE = '7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e80';
const updated = datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2026-11-20T09:30:00.000Z');
const templatePath = fromProviderState(
  '/api/account/company/reply_template/${templateUuid}',
  `/api/account/company/reply_template/${EXAMPLE_TEMPLATE}`,
);
const { 'Content-Type': _type, ...bodyless } = headers;

describe('mfe-settings → auth: reply templates', () => {
  test("when an admin lists the company's templates, then each comes with its name, language and text", async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATE)
      .uponReceiving("the company's reply templates")
      .withRequest('GET', '/api/account/company/reply_template/', (request) => request.headers(bodyless))
      .willRespondWith(200, (response) =>
        response.jsonBody(
          eachLike({
            uuid: uuid(EXAMPLE_TEMPLATE),
            name: string('Received'),
            language: string('en'),
            body: string('We have it.'),
            updated,
          }),
        ),
      )
      .executeTest(async (server) => {
        expect((await listReplyTemplates(api(server.url)))[0]!.name).toBe('Received');
      });
  });

  test('when an admin adds a template in a language, then it comes back', async () => {
    const template = { name: 'Merci', body: 'Merci pour votre signalement.', language: 'fr' as const };
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a new reply template')
      .withRequest('POST', '/api/account/company/reply_template/', (request) =>
        request.headers(headers).jsonBody(template),
      )
      .willRespondWith(201, (response) => response.jsonBody({ uuid: uuid(EXAMPLE_TEMPLATE), ...template, updated }))
      .executeTest(async (server) => {
        expect((await createReplyTemplate(api(server.url), template)).body).toBe(template.body);
      });
  });

  test('when an admin adds a template without text, then the field error comes back', async () => {
    await pact
      .addInteraction()
      .given(STATE)
      .uponReceiving('a reply template without text')
      .withRequest('POST', '/api/account/company/reply_template/', (request) =>
        request.headers(headers).jsonBody({ name: 'Empty', body: ' ' }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({ message: string('Bad Request'), errors: { body: eachLike('This field is required') } }),
      )
      .executeTest(async (server) => {
        expect(await failure(createReplyTemplate(api(server.url), { name: 'Empty', body: ' ' }))).toMatchObject({
          status: 400,
        });
      });
  });

  test('when an admin renames a template and moves it to another language, then it comes back changed', async () => {
    const template = { name: 'Eingang', body: 'Wir haben Ihre Meldung erhalten.', language: 'de' as const };
    await pact
      .addInteraction()
      .given(TEMPLATE_STATE)
      .uponReceiving('a reply template edited')
      .withRequest('PUT', templatePath, (request) => request.headers(headers).jsonBody(template))
      .willRespondWith(200, (response) => response.jsonBody({ uuid: uuid(EXAMPLE_TEMPLATE), ...template, updated }))
      .executeTest(async (server) => {
        expect((await updateReplyTemplate(api(server.url), EXAMPLE_TEMPLATE, template)).body).toBe(template.body);
      });
  });

  test('when an admin deletes a template, then 204', async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATE)
      .uponReceiving('a reply template deleted')
      .withRequest('DELETE', templatePath, (request) => request.headers(bodyless))
      .willRespondWith(204)
      .executeTest(async (server) => {
        await expect(deleteReplyTemplate(api(server.url), EXAMPLE_TEMPLATE)).resolves.toBeUndefined();
      });
  });
});
