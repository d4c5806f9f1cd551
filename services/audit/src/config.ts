import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const auditConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8085),
});
export type AuditConfig = z.infer<typeof auditConfigSchema>;
