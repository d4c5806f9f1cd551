import createDOMPurify, { type DOMPurify, type WindowLike } from 'dompurify';
import { JSDOM } from 'jsdom';

let window: JSDOM['window'] | undefined;

/**
 * A DOMPurify instance of its own on a server-side DOM (jsdom). One DOM serves every instance and is made on
 * first use, so a service that never sanitises never pays for it. Each caller gets its own instance because
 * hooks and settings stay on an instance.
 */
export function newDomPurifier(): { purify: DOMPurify; window: JSDOM['window'] } {
  window ??= new JSDOM('<!DOCTYPE html>').window;
  return { purify: createDOMPurify(window as unknown as WindowLike), window };
}
