export { auditServiceDefinition, createAuditService, type AuditDependencies } from './service';
export { auditConfigSchema, type AuditConfig } from './config';
export { AUDIT_SCHEMA, auditMigrations } from './data-access/migrations';
