import { execFileSync } from 'node:child_process';
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
  /** Who the IdP says signs in next (as the e-mail NameID). */
  signInAs(email: string): void;
  close(): Promise<void>;
}

/** A self-signed RSA certificate and key from openssl, as an IdP administrator would make one. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'whistle-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', '/CN=idp.test',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'), key: readFileSync(path.join(dir, 'key.pem'), 'utf8') };
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
  let server: Server | undefined;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    (async () => {
      const request = await idp.parseLoginRequest(serviceProvider, 'redirect', { query });
      const { context, entityEndpoint } = (await idp.createLoginResponse(serviceProvider, request as unknown as Parameters<typeof idp.createLoginResponse>[1], 'post', { email }, { relayState: query.RelayState })) as {
        context: string; entityEndpoint: string;
      };
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<form method="post" action="${entityEndpoint}"><input type="hidden" name="SAMLResponse" value="${context}"/>` +
          `<input type="hidden" name="RelayState" value="${query.RelayState}"/></form>`,
      );
    })().catch((error: unknown) => res.writeHead(400).end(String(error)));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const entryPoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`;
  const idp = samlify.IdentityProvider({
    entityID: 'https://idp.test/metadata',
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
    signInAs(next) {
      email = next;
    },
    close: () => new Promise<void>((resolve) => server!.close(() => resolve())),
  };
}

/** The hidden fields of the IdP's auto-submitting form. */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/name="([^"]+)" value="([^"]*)"/g)) fields[match[1]] = match[2];
  return fields;
}
