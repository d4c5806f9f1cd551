#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { authServiceDefinition } from './service';

void runService(authServiceDefinition);
