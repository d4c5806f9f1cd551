import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as validator from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';

samlify.setSchemaValidator(validator);

/** What the IdP knows of Whistle (the `service_provider` answer of PUT /api/account/company/sso). */
export interface ServiceProviderInfo {
  entity_id: string;
  acs_url: string;
}

export interface TestIdentityProvider {
  /** Single sign-on URL (HTTP-Redirect binding): the company's entry point. */
  entryPoint: string;
  certificate: string;
  /** Who the IdP says signs in next (NameID = e-mail), as if its own login page had been passed. */
  signInAs(email: string): void;
  close(): Promise<void>;
}

function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'whistle-e2e-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', '/CN=idp.test',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'), key: readFileSync(path.join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A SAML 2.0 identity provider (samlify) on loopback, the approach of services/auth/test/saml-idp.ts
 * made for a browser: it reads the AuthnRequest from the redirect and answers a page whose form posts
 * the signed Response to Whistle's assertion consumer service by itself, as real IdPs do.
 */
export async function startIdentityProvider(sp: ServiceProviderInfo): Promise<TestIdentityProvider> {
  const { cert, key } = selfSignedCertificate();
  let email = '';
  const server: Server = createServer((req, res) => {
    const query = Object.fromEntries(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    (async () => {
      const request = await idp.parseLoginRequest(serviceProvider, 'redirect', { query });
      const { context, entityEndpoint } = (await idp.createLoginResponse(
        serviceProvider, request as unknown as Parameters<typeof idp.createLoginResponse>[1], 'post', { email }, { relayState: query.RelayState },
      )) as { context: string; entityEndpoint: string };
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><body onload="document.forms[0].submit()"><form method="post" action="${escapeAttribute(entityEndpoint)}">` +
          `<input type="hidden" name="SAMLResponse" value="${escapeAttribute(context)}"/>` +
          `<input type="hidden" name="RelayState" value="${escapeAttribute(query.RelayState ?? '')}"/></form></body>`,
      );
    })().catch((error: unknown) => res.writeHead(400).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const entryPoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`;
  const idp = samlify.IdentityProvider({
    entityID: 'https://idp.test/metadata',
    signingCert: cert,
    privateKey: key,
    wantAuthnRequestsSigned: false,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: entryPoint }],
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
    signInAs(next) {
      email = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
