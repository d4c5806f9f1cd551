import type { Logger } from '../logging/logger';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

export interface RecordingLogger extends Logger {
  /** Every entry written through this logger and its children, oldest first. */
  readonly entries: LogEntry[];
}

/** A Logger that keeps what it is given, for assertions such as "was this logged" or "no payload in the log". */
export function createRecordingLogger(
  bindings: Record<string, unknown> = {},
  entries: LogEntry[] = [],
): RecordingLogger {
  const write = (level: LogEntry['level']) => (first: string | object, message?: string) => {
    if (typeof first === 'string') entries.push({ level, message: first, fields: { ...bindings } });
    else
      entries.push({ level, message: message ?? '', fields: { ...bindings, ...(first as Record<string, unknown>) } });
  };
  return {
    entries,
    child: (more) => createRecordingLogger({ ...bindings, ...more }, entries),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}
