import { Router } from 'express';
import { commonPasswordPrefixSchema, type CommonPasswordSuffixes } from '@whistle/contracts';
import { InputError } from '@whistle/service-kit';
import { commonPasswordSuffixes } from '../../domain/passwords/common-passwords';

/**
 * GET /api/account/password/common/{prefix}: the k-anonymous common-password check, for every page where a password
 * is chosen (onboarding, invitation, reset, change). Public and the same for everyone: cached a day. The request
 * log names the route template only, never the prefix.
 */
export function commonPasswordRoutes(): Router {
  const router = Router();
  router.get('/api/account/password/common/:prefix', (req, res) => {
    const prefix = commonPasswordPrefixSchema.safeParse(req.params.prefix);
    // Never echoed: a client sending a whole hash (or a password) by mistake must not see it in an answer either.
    if (!prefix.success) throw new InputError('Bad Request', { prefix: ['A hash prefix of lower-case hex'] });
    const answer: CommonPasswordSuffixes = { suffixes: [...commonPasswordSuffixes(prefix.data)] };
    res.set('Cache-Control', 'public, max-age=86400').json(answer);
  });
  return router;
}
