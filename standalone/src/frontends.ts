import type { ServerResponse } from 'node:http';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Response, type NextFunction, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import {
  localeNamespaceOwner,
  prefixesOf,
  workloads,
  type BrowserErrorReportingConfig,
  type CompanyPublicView,
  type WorkloadName,
} from '@whistle/contracts';
import { pageTemplate, type PageTemplate } from './page';

/** Where each frontend workload's build output lives in this repository (its `dist/`). */
export function frontendDist(rootDir: string, workload: WorkloadName): string {
  return path.join(rootDir, workload, 'dist');
}

const frontendNames = (Object.keys(workloads) as WorkloadName[]).filter((name) => workloads[name].kind === 'frontend');

/** Chunks and assets carry a content hash in their name (tools/webpack), with or without a `.br`/`.gz` suffix. */
const HASHED_FILE = /\.[0-9a-f]{8}\.[a-z]+(\.br|\.gz)?$/;

/**
 * Serves a build folder with the `.br`/`.gz` files made at build time (tools/webpack): Brotli, then gzip,
 * else the file itself, by Accept-Encoding, with `Vary: Accept-Encoding`. Hashed files never change;
 * entry files (index.html, remoteEntry.js, manifests, locales) keep their names across releases, so they
 * are revalidated (ETag, 304) on every use. The folder is listed once, at start: a rebuilt frontend needs
 * a restart.
 */
function serveBuilt(root: string): RequestHandler {
  return expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      fallthrough: true,
      setHeaders(res: ServerResponse, file: string) {
        res.setHeader('Cache-Control', HASHED_FILE.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    },
  });
}

/** Runs `handler` as if `url` had been asked, then puts the request back as it was. */
const serveAs =
  (handler: RequestHandler, url: string): RequestHandler =>
  (req, res, next) => {
    const original = req.url;
    req.url = url;
    handler(req, res, (error?: unknown) => {
      req.url = original;
      next(error);
    });
  };

/** The company's public view as the API gives it to anyone, or undefined when there is no such company. */
export type CompanyViewSource = (urlIdentifier: string, req: Request) => Promise<CompanyPublicView | undefined>;

type Encoding = 'br' | 'gzip' | 'identity';
const ENCODE: Record<Encoding, (html: string) => Buffer> = {
  br: (html) => brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (html) => gzipSync(html),
  identity: (html) => Buffer.from(html),
};
/** A page that is the same for every request, in each encoding: compressed once, at start. */
type FixedPage = Record<Encoding, Buffer>;
const fixedPage = (html: string): FixedPage => ({
  br: ENCODE.br(html),
  gzip: ENCODE.gzip(html),
  identity: ENCODE.identity(html),
});

/**
 * A page made here: Brotli or gzip by Accept-Encoding (as the built files), revalidated by its ETag. A company's
 * page differs by company, so it is compressed as it is sent, in the one encoding asked for.
 */
function sendPage(req: Request, res: Response, page: FixedPage | string) {
  // Brotli first whatever order the client lists them in, as expressStaticGzip's orderPreference does.
  const encoding: Encoding =
    (['br', 'gzip'] as const).find((name) => req.acceptsEncodings(name) === name) ?? 'identity';
  res.vary('Accept-Encoding').set('Cache-Control', 'no-cache').type('html');
  if (encoding !== 'identity') res.set('Content-Encoding', encoding);
  res.send(typeof page === 'string' ? ENCODE[encoding](page) : page[encoding]);
}

/** The staff login page, also the shell's page at `/`. */
const LOGIN_PAGE = /^\/(?:company\/login\/?)?$/;
/** The browser's Accept-Language, most wanted first. */
const languagesOf = (req: Request) => req.acceptsLanguages().filter((language) => language !== '*');

/** /disclose/{urlIdentifier} (a landing page), and the company's other pages under it (success and review: the landing). */
const COMPANY_PAGE = /^\/disclose\/([^/]+)(\/(?:create|success|review))?\/?$/;

/**
 * Serves the built shell and remotes the way the Ingress does in a cluster: remotes under their
 * routing-table prefix, translations from the frontend that owns the namespace, and the shell's
 * index.html for every other page (the SPA decides what to show).
 */
export function frontendRouter(
  rootDir: string,
  {
    errorReporting,
    companyView,
    template = pageTemplate(frontendDist(rootDir, 'shell'), frontendDist(rootDir, 'mfe-disclose')),
  }: {
    errorReporting?: BrowserErrorReportingConfig;
    /** Where a landing page's company comes from; without it the landing page is drawn by the remote alone. */
    companyView?: CompanyViewSource;
    /** The pages, read from the builds once (the platform's, whose inlined styles its CSP allows). */
    template?: PageTemplate;
  } = {},
): Router {
  const router = express.Router();
  if (errorReporting) {
    // The shell's run-time manifest with the browser's error reporting beside the remotes, as a cluster's
    // ConfigMap holds it (SENTRY_BROWSER_DSN set; without it the built file is served as it is).
    const manifest = JSON.parse(readFileSync(path.join(frontendDist(rootDir, 'shell'), 'remotes.json'), 'utf8'));
    const body = JSON.stringify({ ...manifest, errorReporting });
    router.get('/remotes.json', (_req: Request, res: Response) => {
      res.set('Cache-Control', 'no-cache').type('application/json').send(body);
    });
  }
  const locales = new Map(
    frontendNames.map((name) => [name, serveBuilt(path.join(frontendDist(rootDir, name), 'locales'))]),
  );

  router.get('/locales/:language/:file', (req: Request, res: Response, next: NextFunction) => {
    const match = /^([a-z-]+)\.json$/.exec(String(req.params.file));
    const language = String(req.params.language);
    const owner = match ? localeNamespaceOwner(match[1]) : undefined;
    if (!match || !owner || !/^[a-z]{2}(-[A-Z]{2})?$/.test(language)) return next();
    serveAs(locales.get(owner)!, `/${language}/${match[1]}.json`)(req, res, next);
  });

  for (const name of frontendNames.filter((frontend) => frontend !== 'shell')) {
    const remote = serveBuilt(frontendDist(rootDir, name));
    for (const prefix of prefixesOf(name)) router.use(prefix, remote);
  }
  const shell = serveBuilt(frontendDist(rootDir, 'shell'));
  const staffPage = fixedPage(template.staff);
  const discloserPage = fixedPage(template.discloser);
  router.use(shell);
  router.get(/^\/(?!api\/|locales\/|remotes\/).*/, async (req: Request, res: Response, next: NextFunction) => {
    if (!req.accepts('html')) return next();
    if (LOGIN_PAGE.test(req.path)) {
      res.vary('Accept-Language');
      const after = typeof req.query.next === 'string' ? req.query.next : null;
      return sendPage(req, res, template.login(languagesOf(req), after));
    }
    if (!req.path.startsWith('/disclose')) return sendPage(req, res, staffPage);
    const page = COMPANY_PAGE.exec(req.path);
    let company: CompanyPublicView | undefined;
    if (page && companyView) {
      try {
        company = await companyView(decodeURIComponent(page[1]), req);
      } catch {
        // Not drawn here, then: the remote loads the company itself and shows what went wrong.
      }
    }
    if (!company) return sendPage(req, res, discloserPage);
    // Drawn in the browser's language where the company offers it: a cache keeps one page per Accept-Language.
    res.vary('Accept-Language');
    const preferred = languagesOf(req);
    sendPage(
      req,
      res,
      page![2] === '/create' ? template.create(company, preferred) : template.landing(company, preferred),
    );
  });
  return router;
}
