#!/usr/bin/env node
// `npm run migrate -- status|up`: the file schema's migrations, without starting the service (docs/operations.md).
import { migrateMain } from '@whistle/service-kit';
import { fileSchema } from './service';

migrateMain(fileSchema);
