#!/usr/bin/env node
// First, so that http, express and pg are traced when the OTEL_* variables ask for traces (docs/operations.md).
import '@whistle/service-kit/instrument';
import { ConfigError } from '@whistle/service-kit';
import { SHUTDOWN_GRACE_MS, startStandalone, type StandaloneServer } from './server';

/** Past the grace period for requests, stopping the services and closing the ports gets this long. */
const STOP_MARGIN_MS = 5_000;

function main(): void {
  const starting: Promise<StandaloneServer> = startStandalone();
  const shutdown = async (signal: string) => {
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + STOP_MARGIN_MS).unref();
    await (await starting).shutdown(signal);
    clearTimeout(timer);
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void shutdown(signal).catch(() => process.exit(1)));
  }
  starting.catch((error: unknown) => {
    // A configuration problem is the operator's to fix: say what, without a stack trace.
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}

main();
