#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { notificationConfigSchema } from './config';
import { createNotificationService } from './service';

void runService({ name: 'notification', configSchema: notificationConfigSchema, create: createNotificationService });
