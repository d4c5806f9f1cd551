import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as validator from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';

samlify.setSchemaValidator(validator);

export interface TestIdentityProvider {
  /** Single sign-on URL (HTTP-Redirect binding) to configure as the company's entry point. */
  entryPoint: string;
  certificate: string;
  /** Who the IdP says signs in next: the e-mail as NameID, or in attribute `attribute` beside an opaque NameID. */
  signInAs(email: string, attribute?: string): void;
  /**
   * Addresses the next responses (Destination and SubjectConfirmationData Recipient) to `url` instead of
   * the SP's ACS, as an IdP answering for another service provider does; undefined restores the ACS.
   */
  addressTo(url: string | undefined): void;
  close(): Promise<void>;
}

/** A self-signed RSA certificate and key from openssl, as an IdP administrator would make one. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'whistle-idp-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '2',
        '-subj',
        '/CN=idp.test',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A SAML 2.0 identity provider (samlify) on loopback: it reads the SP's AuthnRequest from the redirect
 * and answers, as a real IdP does after its own login, with an auto-submitting form posting a signed
 * Response to the SP's assertion consumer service.
 */
export async function startIdentityProvider(sp: { entity_id: string; acs_url: string }): Promise<TestIdentityProvider> {
  const { cert, key } = selfSignedCertificate();
  let email = '';
  let emailAttribute: string | undefined;
  let recipient: string | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    (async () => {
      const request = await idp.parseLoginRequest(serviceProvider, 'redirect', { query });
      const inResponseTo = (request as unknown as { extract: { request: { id: string } } }).extract.request.id;
      const { context, entityEndpoint } = (await idp.createLoginResponse(
        serviceProvider,
        request as unknown as Parameters<typeof idp.createLoginResponse>[1],
        'post',
        { email },
        {
          relayState: query.RelayState,
          ...(emailAttribute || recipient
            ? {
                customTagReplacement: customResponse(sp, inResponseTo, email, {
                  attribute: emailAttribute,
                  recipient: recipient ?? sp.acs_url,
                }),
              }
            : {}),
        },
      )) as {
        context: string;
        entityEndpoint: string;
      };
      // A browser posts it by itself (onload), as after a real IdP's login; API tests read the fields.
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><body onload="document.forms[0].submit()"><form method="post" action="${escapeAttribute(entityEndpoint)}">` +
            `<input type="hidden" name="SAMLResponse" value="${escapeAttribute(context)}"/>` +
            `<input type="hidden" name="RelayState" value="${escapeAttribute(query.RelayState ?? '')}"/></form></body>`,
        );
    })().catch((error: unknown) => res.writeHead(400).end(String(error)));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const entryPoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`;
  const idp = samlify.IdentityProvider({
    entityID: IDP_ENTITY_ID,
    signingCert: cert,
    privateKey: key,
    wantAuthnRequestsSigned: false,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: entryPoint }],
    // Unused here; declared so samlify does not warn about its absence.
    singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${entryPoint}/logout` }],
  });
  const serviceProvider = samlify.ServiceProvider({
    entityID: sp.entity_id,
    wantAssertionsSigned: true,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: sp.acs_url }],
  });
  return {
    entryPoint,
    certificate: cert,
    signInAs(next, attribute) {
      email = next;
      emailAttribute = attribute;
    },
    addressTo(url) {
      recipient = url;
    },
    close: () => new Promise<void>((resolve) => server!.close(() => resolve())),
  };
}

const IDP_ENTITY_ID = 'https://idp.test/metadata';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * samlify's response template filled by hand: with `attribute`, an opaque persistent NameID and the e-mail
 * in that attribute (else the e-mail as NameID), addressed to `recipient`.
 */
function customResponse(
  sp: { entity_id: string; acs_url: string },
  inResponseTo: string,
  email: string,
  { attribute, recipient }: { attribute?: string; recipient: string },
) {
  return (template: string) => {
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60 * 1000).toISOString();
    const id = `_${randomUUID()}`;
    const values: Record<string, string> = {
      ID: id,
      AssertionID: `_${randomUUID()}`,
      Destination: recipient,
      Audience: sp.entity_id,
      SubjectRecipient: recipient,
      Issuer: IDP_ENTITY_ID,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: attribute
        ? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'
        : 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: attribute ? `opaque-${randomUUID()}` : email,
      InResponseTo: inResponseTo,
      AuthnStatement: '',
    };
    // Inserted as XML: replaceTagsByValue escapes what it inserts.
    const attributeStatement = !attribute
      ? ''
      : `<saml:AttributeStatement><saml:Attribute Name="${attribute}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
        `<saml:AttributeValue xsi:type="xs:string">${email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;
    return {
      id,
      context: samlify.SamlLib.replaceTagsByValue(template.replace('{AttributeStatement}', attributeStatement), values),
    };
  };
}

/** The hidden fields of the IdP's auto-submitting form. */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/name="([^"]+)" value="([^"]*)"/g)) fields[match[1]] = match[2];
  return fields;
}
