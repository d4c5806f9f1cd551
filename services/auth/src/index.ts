export { authServiceDefinition, createAuthService, type AuthDependencies } from './service';
export { authConfigSchema, type AuthConfig } from './config';
export { AUTH_SCHEMA, authMigrations } from './data-access/migrations';
