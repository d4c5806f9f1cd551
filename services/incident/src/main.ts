#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { incidentServiceDefinition } from './service';

void runService(incidentServiceDefinition);
