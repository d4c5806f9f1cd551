import type { PlatformConfig } from '../config/platform-config';
import type { Logger } from '../logging/logger';
import type { Adapter, OpenedAdapters, PortSet, ServiceDependencies } from './port';

const adapterAt = (deps: OpenedAdapters, key: string) => deps[key] as Adapter;

/**
 * Opens the ports in the order declared (the database first) with the adapters the configuration
 * selects. If one fails, those already open are closed again: a failed start leaves no connection behind.
 */
export async function openPorts<P extends PortSet>(
  ports: P,
  config: PlatformConfig,
  logger: Logger,
): Promise<ServiceDependencies<P>> {
  const opened: OpenedAdapters = { logger };
  try {
    for (const [key, port] of Object.entries(ports)) opened[key] = await port.open(config, logger);
  } catch (error) {
    await closePorts(ports, opened).catch(() => undefined);
    throw error;
  }
  return opened as ServiceDependencies<P>;
}

/**
 * Closes the ports' adapters in the reverse order of opening: the users of the database first, the
 * database last. Each is closed even if an earlier one fails; the first failure is then rethrown.
 */
export async function closePorts(ports: PortSet, deps: OpenedAdapters): Promise<void> {
  const failures: unknown[] = [];
  for (const key of Object.keys(ports).reverse()) {
    if (deps[key] === undefined) continue;
    await adapterAt(deps, key)
      .close()
      .catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) throw failures[0];
}

/** The /readyz probes of the ports that have one, by port name. */
export function portReadiness(ports: PortSet, deps: OpenedAdapters): Record<string, () => Promise<unknown>> {
  return Object.fromEntries(
    Object.entries(ports).flatMap(([key, port]) =>
      port.ready ? [[port.name, () => port.ready!(adapterAt(deps, key))] as const] : [],
    ),
  );
}

/** Which adapter each port opened, by port name, for the start-up log: `{ database: 'postgres', bus: 'rabbitmq' }`. */
export function adapterKinds(ports: PortSet, deps: OpenedAdapters): Record<string, string> {
  return Object.fromEntries(Object.entries(ports).map(([key, port]) => [port.name, adapterAt(deps, key).kind]));
}

/** The ports several services declare, each once: what a process running them all opens. */
export function unionOfPorts(portSets: readonly PortSet[]): PortSet {
  const union: PortSet = {};
  for (const ports of portSets) {
    for (const [key, port] of Object.entries(ports)) {
      if (union[key] && union[key] !== port) throw new Error(`Two different ports are declared as "${key}"`);
      union[key] = port;
    }
  }
  return union;
}

/** A service's share of adapters opened for several: the ports it declared, and the logger. */
export function dependenciesFor<P extends PortSet>(ports: P, deps: OpenedAdapters): ServiceDependencies<P> {
  const own: OpenedAdapters = { logger: deps.logger };
  for (const key of Object.keys(ports)) {
    if (deps[key] === undefined) throw new Error(`Port "${key}" is not open`);
    own[key] = deps[key];
  }
  return own as ServiceDependencies<P>;
}
