export { createPlatform, platformPorts, platformServices, type Platform, type PlatformDependencies } from './platform';
export { standaloneConfigSchema, type StandaloneConfig } from './config';
export { frontendRouter } from './frontends';
export { loadOrCreateSecrets, type PlatformSecrets } from './secrets';
export { SHUTDOWN_GRACE_MS, startStandalone, type StandaloneServer } from './server';
