#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { fileConfigSchema } from './config';
import { createFileService } from './service';

void runService({ name: 'file', configSchema: fileConfigSchema, create: createFileService });
