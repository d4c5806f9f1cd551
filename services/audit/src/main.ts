#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { auditServiceDefinition } from './service';

void runService(auditServiceDefinition);
