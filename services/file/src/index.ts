export { createFileService, fileServiceDefinition, FILE_SERVICE_CONTENT_TYPES, type FileDependencies } from './service';
export { fileConfigSchema, type FileConfig } from './config';
export { FILE_SCHEMA, fileMigrations } from './data-access/migrations';
export { ENCRYPTED_FILE_NAME_HEADER, ENCRYPTED_KEY_HEADER } from './entry-points/http/file.routes';
