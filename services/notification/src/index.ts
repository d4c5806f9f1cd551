export { createNotificationService, notificationServiceDefinition, type NotificationDependencies } from './service';
export { notificationConfigSchema, type NotificationConfig } from './config';
export { NOTIFICATION_SCHEMA, notificationMigrations } from './data-access/migrations';
export { welcomeMail } from './domain/welcome-mail';
