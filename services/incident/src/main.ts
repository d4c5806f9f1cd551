#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { incidentConfigSchema } from './config';
import { createIncidentService } from './service';

void runService({ name: 'incident', configSchema: incidentConfigSchema, create: createIncidentService });
