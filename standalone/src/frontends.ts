import path from 'node:path';
import express, { type Request, type Response, type NextFunction, type Router } from 'express';
import { localeNamespaceOwner, prefixesOf, workloads, type WorkloadName } from '@whistle/contracts';

/** Where each frontend workload's build output lives in this repository (its `dist/`). */
export function frontendDist(rootDir: string, workload: WorkloadName): string {
  return path.join(rootDir, workload, 'dist');
}

const frontendNames = (Object.keys(workloads) as WorkloadName[]).filter((name) => workloads[name].kind === 'frontend');

/**
 * Serves the built shell and remotes the way the Ingress does in a cluster: remotes under their
 * routing-table prefix, translations from the frontend that owns the namespace, and the shell's
 * index.html for every other page (the SPA decides what to show).
 */
export function frontendRouter(rootDir: string): Router {
  const router = express.Router();
  const staticOptions = {
    index: false,
    fallthrough: true,
    setHeaders(res: Response, file: string) {
      // Entry files change with each deploy; chunks carry a content hash and never change.
      const entry = /(index\.html|remotes\.json|mf-manifest\.json|remoteEntry\.js|main\.js|\.json)$/.test(file);
      res.setHeader('Cache-Control', entry ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  };

  router.get('/locales/:language/:file', (req: Request, res: Response, next: NextFunction) => {
    const match = /^([a-z-]+)\.json$/.exec(String(req.params.file));
    const language = String(req.params.language);
    const owner = match ? localeNamespaceOwner(match[1]) : undefined;
    if (!match || !owner || !/^[a-z]{2}(-[A-Z]{2})?$/.test(language)) return next();
    res.sendFile(
      path.join(frontendDist(rootDir, owner), 'locales', language, `${match[1]}.json`),
      { headers: { 'Cache-Control': 'no-cache' } },
      (error) => {
        if (error) next();
      },
    );
  });

  for (const name of frontendNames.filter((frontend) => frontend !== 'shell')) {
    for (const prefix of prefixesOf(name))
      router.use(prefix, express.static(frontendDist(rootDir, name), staticOptions));
  }
  const shellDist = frontendDist(rootDir, 'shell');
  router.use(express.static(shellDist, staticOptions));
  router.get(/^\/(?!api\/|locales\/|remotes\/).*/, (req: Request, res: Response, next: NextFunction) => {
    if (!req.accepts('html')) return next();
    res.sendFile(path.join(shellDist, 'index.html'), { headers: { 'Cache-Control': 'no-cache' } }, (error) => {
      if (error) next(error);
    });
  });
  return router;
}
