import { parseArgs } from 'node:util';
import { loadConfig, type Environment } from '../config/load-config';
import { platformConfigSchema } from '../config/platform-config';
import { databasePort } from '../database/database-port';
import { migrate } from '../database/migrate';
import { migrationStatus, type SchemaStatus } from '../database/migration-status';
import { createLogger } from '../logging/logger';
import { schemaStreams, type ServiceSchema } from '../service-lifecycle';

const usage = 'usage: npm run migrate -- status [--json] | up';

function describe(status: SchemaStatus): string[] {
  const lines = status.migrations.map(
    (m) => `${m.state.padEnd(8)} ${`${m.stream}/${m.id}`.padEnd(48)} ${m.appliedAt ?? '-'.padEnd(24)} ${m.checksum}`,
  );
  for (const r of status.repeatables) lines.push(`${r.state.padEnd(8)} ${`${r.stream}/${r.name}`.padEnd(48)}`);
  for (const u of status.unknown) lines.push(`${'unknown'.padEnd(8)} ${u.id.padEnd(48)} ${u.appliedAt}`);
  return lines;
}

/**
 * A service's `npm run migrate -- status|up` (docs/operations.md, "Upgrades"), on the database the service would open
 * (DATABASE_URL, or PGlite under DATA_DIR) and none of its secrets. `status` lists each migration (applied, pending,
 * edited, with its checksum), each repeatable definition (current, changed, new) and the applied migrations this
 * release does not know (a newer release ran them); it changes nothing and exits 1 when an applied migration was
 * edited. `up` applies what is pending, exactly as the service's start does. Returns the exit code.
 */
export async function runMigrateCommand(
  service: ServiceSchema,
  argv: readonly string[],
  env: Environment = process.env,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [command] = positionals;
  if (positionals.length !== 1 || (command !== 'status' && command !== 'up')) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const config = loadConfig(platformConfigSchema, env);
  const logger = createLogger({ name: `${service.name}-migrate`, level: config.LOG_LEVEL });
  const db = await databasePort.open(config, logger);
  try {
    const streams = schemaStreams(service);
    if (command === 'up') {
      const result = await migrate(db, service.schema, ...streams);
      for (const id of result.applied) write(`applied  ${id}`);
      for (const name of result.repeatables) write(`defined  ${name}`);
      write(
        `${service.schema}: ${result.applied.length} migrations and ${result.repeatables.length} definitions applied`,
      );
      return 0;
    }
    const status = await migrationStatus(db, service.schema, ...streams);
    if (values.json) write(JSON.stringify(status));
    else for (const line of describe(status)) write(line);
    return status.migrations.some((m) => m.state === 'edited') ? 1 : 0;
  } finally {
    await db.close();
  }
}

/** The body of a service's `src/migrate.ts`: the command on this process's arguments, its result the exit code. */
export function migrateMain(service: ServiceSchema): void {
  // `status | head`: a reader that stops early is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  runMigrateCommand(service, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
