import { createHash } from 'node:crypto';
import { LOGO_MAX_BYTES, LOGO_TOO_LARGE_MESSAGE, LOGO_TYPE_MESSAGE, type LogoContentType } from '@whistle/contracts';
import { InputError } from '@whistle/service-kit';
import { newDomPurifier } from './dom-purifier';

export interface LogoImage {
  bytes: Buffer;
  contentType: LogoContentType;
  /** sha256 of the stored bytes, hex: names the object and the URL, and is the ETag. */
  sha256: string;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
/**
 * What an SVG file may start with: an XML declaration, comments and a DOCTYPE without an internal subset (no
 * entity definitions, so no entity expansion), then the <svg> root.
 */
const SVG_START =
  /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s+svg[^>[]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;

const typeError = () => new InputError('Invalid logo', { content: [LOGO_TYPE_MESSAGE] });

function svgText(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  return SVG_START.test(text) ? text : undefined;
}

let svgPurifier: ReturnType<typeof newDomPurifier> | undefined;

/** A reference is internal when it points into the same document (`#id`); anything else could fetch. */
const externalReference = (value: string) => {
  const url = /url\s*\(\s*['"]?\s*([^'")\s]*)/gi;
  for (let match = url.exec(value); match; match = url.exec(value)) if (!match[1]!.startsWith('#')) return true;
  return false;
};

function purifierForSvg() {
  if (svgPurifier) return svgPurifier;
  svgPurifier = newDomPurifier();
  svgPurifier.purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    if ((name === 'href' || name === 'xlink:href') && !value.startsWith('#')) data.keepAttr = false;
    if (externalReference(value)) data.keepAttr = false;
  });
  return svgPurifier;
}

/**
 * An SVG as it is stored: DOMPurify's SVG profile (no script, no event handler attribute, no foreignObject),
 * and also no style sheet, link, image or any reference outside the file, so showing the logo runs nothing and
 * fetches nothing. Parsed as HTML, as DOMPurify does, so XML entities are never expanded. The result is
 * serialised as XML with its namespace, as an .svg file must be.
 */
export function sanitizeSvg(text: string): Buffer {
  const { purify, window } = purifierForSvg();
  const body = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['style', 'a', 'image', 'foreignObject', 'script'],
    RETURN_DOM: true,
  });
  const root = (body as Element).querySelector('svg');
  if (!root) throw typeError();
  return Buffer.from(new window.XMLSerializer().serializeToString(root), 'utf8');
}

/**
 * The uploaded logo, checked: at most LOGO_MAX_BYTES, and a PNG, JPEG or SVG by its own first bytes (the
 * name or type a browser reports is never asked). An SVG is sanitised before it is stored.
 */
export function readLogo(base64: string): LogoImage {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length === 0) throw typeError();
  if (raw.length > LOGO_MAX_BYTES) throw new InputError('Invalid logo', { content: [LOGO_TOO_LARGE_MESSAGE] });
  let contentType: LogoContentType;
  let bytes: Buffer = raw;
  if (raw.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) contentType = 'image/png';
  else if (raw.subarray(0, JPEG_SIGNATURE.length).equals(JPEG_SIGNATURE)) contentType = 'image/jpeg';
  else {
    const text = svgText(raw);
    if (text === undefined) throw typeError();
    contentType = 'image/svg+xml';
    bytes = sanitizeSvg(text);
  }
  return { bytes, contentType, sha256: createHash('sha256').update(bytes).digest('hex') };
}
