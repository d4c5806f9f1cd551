import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** Every page: nothing from third parties, no inline code, no framing. */
const pageDirectives = {
  defaultSrc: ["'self'"],
  // WebAssembly may be compiled (not JavaScript evaluated): hash-wasm's Argon2id, the discloser's proof of work.
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  // A case's decrypted recordings play in the page from an object URL.
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
};

/**
 * The Trusted Types policies the staff pages create, and nothing else may: the shell's `default` (script URLs of
 * Whistle's own origin: webpack chunks, the remotes' entries, the CSV export's worker), mfe-settings' sanitiser
 * `whistle-rich-text`, DOMPurify's own (it parses through it) and ProseMirror's for pasted markup, which it parses
 * in a detached document. Kept equal to the shell's nginx staff-security-headers.conf (k8s/test checks).
 */
export const STAFF_TRUSTED_TYPES = ['default', 'whistle-rich-text', 'dompurify', 'ProseMirrorClipboard'];

function headers(
  directives: Record<string, string[]>,
  strictTransportSecurity: boolean,
  inlineStyleHashes: readonly string[],
): RequestHandler {
  const styleSrc = [...pageDirectives.styleSrc, ...inlineStyleHashes];
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { ...pageDirectives, styleSrc, ...directives } },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity,
  });
}

/**
 * The pages' security headers. Discloser pages post to nothing but Whistle. Staff pages also let a form's redirect
 * reach the company's own SAML identity provider (the SSO form posts here, and Chromium applies form-action to the
 * redirect that follows); which provider is per company, so any web origin is allowed there. Staff pages also
 * require Trusted Types; the discloser pages do not yet. `inlineStyleHashes`: the drawn pages' inlined stylesheets
 * (PageTemplate's `styleHashes`), the only inline styles allowed.
 */
export function pageHeaders(overHttps: boolean, inlineStyleHashes: readonly string[] = []): RequestHandler {
  const discloserPages = headers({ formAction: ["'self'"] }, overHttps, inlineStyleHashes);
  const staffPages = headers(
    {
      formAction: ["'self'", 'https:', ...(overHttps ? [] : ['http:'])],
      // A string reaching a script or HTML sink is refused unless one of these policies vouches for it (DOM XSS).
      requireTrustedTypesFor: ["'script'"],
      trustedTypes: STAFF_TRUSTED_TYPES,
    },
    overHttps,
    inlineStyleHashes,
  );
  return (req, res, next) => (req.path.startsWith('/disclose') ? discloserPages : staffPages)(req, res, next);
}
