#!/usr/bin/env node
import { runService } from '@whistle/service-kit';
import { notificationServiceDefinition } from './service';

void runService(notificationServiceDefinition);
