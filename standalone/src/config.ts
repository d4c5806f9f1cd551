import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const standaloneConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Repository root holding the frontends' dist/ folders. */
  ROOT_DIR: z.string().optional(),
});
export type StandaloneConfig = z.infer<typeof standaloneConfigSchema>;
