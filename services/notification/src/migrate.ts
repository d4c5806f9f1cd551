#!/usr/bin/env node
// `npm run migrate -- status|up`: the notification schema's migrations, without starting the service (docs/operations.md).
import { migrateMain } from '@whistle/service-kit';
import { notificationSchema } from './service';

migrateMain(notificationSchema);
