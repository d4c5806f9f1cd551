import { z } from 'zod';
import { platformConfigSchema } from '@whistle/service-kit';

export const notificationConfigSchema = platformConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8084),
});
export type NotificationConfig = z.infer<typeof notificationConfigSchema>;
