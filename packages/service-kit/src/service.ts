import type { Router } from 'express';
import type { z } from 'zod';
import type { PlatformConfig } from './config/platform-config';
import type { PortSet, ServiceDependencies } from './ports/port';

/** A running unit of the platform: its HTTP routes (absolute paths, e.g. `/api/account/...`) and its lifecycle. */
export interface WhistleService {
  readonly name: string;
  readonly router: Router;
  /**
   * Request body types its routes read themselves (a streamed upload), besides JSON and forms; the
   * HTTP app answers 415 to any other type and must not parse these.
   */
  readonly extraContentTypes?: readonly string[];
  /** Runs migrations, subscribes consumers, starts the outbox relay. */
  start(): Promise<void>;
  /** Stops consumers and the relay; does not close the adapters it was given. */
  stop(): Promise<void>;
}

/** `platformConfigSchema` extended with a service's own keys. */
export type ServiceConfigSchema = z.ZodObject & z.ZodType<PlatformConfig>;

/**
 * What a service is made of, for whoever runs it: `runService` (cluster: a process of its own) opens
 * only the declared `ports`; the standalone platform opens each port once for every service and hands
 * each its share. `create` receives exactly the declared adapters (and the logger) and its configuration.
 */
export interface ServiceDefinition<P extends PortSet = PortSet, S extends ServiceConfigSchema = ServiceConfigSchema> {
  /** The service's name in logs. */
  readonly name: string;
  readonly configSchema: S;
  readonly ports: P;
  create(deps: ServiceDependencies<P>, config: z.output<S>): WhistleService;
}

/** Declares a service, keeping the types of its ports and configuration. */
export function defineService<P extends PortSet, S extends ServiceConfigSchema>(
  definition: ServiceDefinition<P, S>,
): ServiceDefinition<P, S> {
  return definition;
}
