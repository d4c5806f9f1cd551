#!/usr/bin/env node
// `npm run migrate -- status|up`: the incident schema's migrations, without starting the service (docs/operations.md).
import { migrateMain } from '@whistle/service-kit';
import { incidentSchema } from './service';

migrateMain(incidentSchema);
