#!/usr/bin/env node
// First, so that http, express and pg are traced when the OTEL_* variables ask for traces (docs/operations.md).
import '@whistle/service-kit/instrument';
import { runService } from '@whistle/service-kit';
import { fileServiceDefinition } from './service';

void runService(fileServiceDefinition);
