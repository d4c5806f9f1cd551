import { z } from 'zod';
import { ConfigError } from '../errors/errors';

export type Environment = Record<string, string | undefined>;

/**
 * Messages phrased to follow the variable name ("PORT must be a number"), for the issues that
 * environment variables produce. A schema's own message wins over these.
 */
const environmentMessages: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return `must be a ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'must be a URL' : `must be a valid ${issue.format}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return undefined;
  }
};

/**
 * Validates the environment against `schema` and returns the typed configuration, or throws a
 * ConfigError naming every missing or invalid variable, so a misconfigured process fails at start
 * with one readable line. Empty values count as unset (`FOO=` in a manifest means "no FOO").
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: Environment = process.env): z.output<S> {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(present, { error: environmentMessages });
  if (result.success) return result.data;

  const problems = result.error.issues.map((issue) => {
    const name = issue.path.map(String).join('.');
    const missing = issue.code === 'invalid_type' && present[name] === undefined;
    return missing ? `${name} is required` : `${name} ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${[...new Set(problems)].join('; ')}`);
}
