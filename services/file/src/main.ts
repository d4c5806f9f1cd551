#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { fileServiceDefinition } from './service';

void runService(fileServiceDefinition);
