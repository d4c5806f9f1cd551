#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { authConfigSchema } from './config';
import { createAuthService } from './service';

void runService({ name: 'auth', configSchema: authConfigSchema, create: createAuthService });
