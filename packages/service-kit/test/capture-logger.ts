import { createLogger, type Logger } from '../src/logging/logger';

/** A real logger whose JSON lines are kept for assertions. */
export function captureLogger(): { logger: Logger; lines: string[]; entries: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const logger = createLogger({
    name: 'test',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
