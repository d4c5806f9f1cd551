import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const fileConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8083),
});
export type FileConfig = z.infer<typeof fileConfigSchema>;
