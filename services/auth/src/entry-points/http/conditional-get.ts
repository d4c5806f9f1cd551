import type { Request, Response } from 'express';

/**
 * Whether If-None-Match names `etag` (weak comparison, as RFC 9110 §13.1.2 asks; `*` names any). Not
 * Express's req.fresh: it answers the full body whenever the request says `Cache-Control: no-cache`, which
 * fetch() adds to every request carrying If-None-Match, though the validation it asks for is this one.
 */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || opaque(trimmed) === opaque(etag);
  });
}

/**
 * Sets the validator and caching policy of a public answer; answers 304 (and says so) when the client's
 * If-None-Match already names it, so a browser or a CDN revalidates without the body being sent again.
 */
export function notModified(req: Request, res: Response, etag: string, cacheControl: string): boolean {
  res.set('ETag', etag).set('Cache-Control', cacheControl);
  if (!matches(req.headers['if-none-match'], etag)) return false;
  res.status(304).end();
  return true;
}
