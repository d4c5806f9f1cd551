import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const incidentConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8082),
});
export type IncidentConfig = z.infer<typeof incidentConfigSchema>;
