// The security headers of the standalone server's pages: the discloser's and the staff's policies differ.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pageHeaders } from '../src/page-headers';

async function policyOf(path: string, overHttps: boolean, inlineStyleHashes?: string[]): Promise<string[]> {
  const app = express();
  app.use(pageHeaders(overHttps, inlineStyleHashes));
  app.use((_req, res) => res.send('<!doctype html>'));
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return (response.headers.get('content-security-policy') ?? '').split(';').map((directive) => directive.trim());
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('page security headers', () => {
  it('when a discloser page is served, then its forms may post to Whistle only', async () => {
    const policy = await policyOf('/disclose/acme', true);
    expect(policy).toContain("form-action 'self'");
    expect(policy).toEqual(
      expect.arrayContaining(["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'"]),
    );
  });

  it('when a staff page is served, then script sinks require Trusted Types, through the policies the pages create', async () => {
    const policy = await policyOf('/company/incidents', true);
    expect(policy).toContain("require-trusted-types-for 'script'");
    expect(policy).toContain('trusted-types default whistle-rich-text dompurify ProseMirrorClipboard');
    // The SSO form's redirect reaches the company's identity provider: any https origin, plain http only without TLS.
    expect(policy).toContain("form-action 'self' https:");
    // Argon2id (the staff key derivation) is WebAssembly.
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(await policyOf('/company/login/sso', false)).toContain("form-action 'self' https: http:");
  });
  it('when pages inline their first stylesheets, then those hashes are the only inline styles allowed, on both sides', async () => {
    const hashes = ["'sha256-AAAA'", "'sha256-BBBB'"];
    for (const path of ['/disclose/acme', '/company/login']) {
      expect(await policyOf(path, true, hashes)).toContain(`style-src 'self' ${hashes.join(' ')}`);
      expect(await policyOf(path, true)).toContain("style-src 'self'");
    }
  });
});
