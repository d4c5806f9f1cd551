#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { auditConfigSchema } from './config';
import { createAuditService } from './service';

void runService({ name: 'audit', configSchema: auditConfigSchema, create: createAuditService });
