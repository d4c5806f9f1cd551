#!/usr/bin/env node
// `npm run migrate -- status|up`: the audit schema's migrations, without starting the service (docs/operations.md).
import { migrateMain } from '@whistle/service-kit';
import { auditSchema } from './service';

migrateMain(auditSchema);
