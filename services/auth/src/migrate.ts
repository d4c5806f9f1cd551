#!/usr/bin/env node
// `npm run migrate -- status|up`: the auth schema's migrations, without starting the service (docs/operations.md).
import { migrateMain } from '@whistle/service-kit';
import { authSchema } from './service';

migrateMain(authSchema);
