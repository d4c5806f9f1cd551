export { createFileService, FILE_SCHEMA } from './service';
export { fileConfigSchema, type FileConfig } from './config';
