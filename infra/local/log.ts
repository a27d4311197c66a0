import { mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** The runtime's own structured log: one JSON line per event, like the functions' Powertools logger. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Log {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLog(level: LogLevel = 'info', write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Log {
  const emit = (at: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return;
    write(JSON.stringify({ level: at.toUpperCase(), timestamp: new Date().toISOString(), service: 'vidbot-local', message, ...fields }));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/**
 * Where the functions' own output goes when a person is reading the terminal (`npm start`, `npm run demo`): their
 * JSON logs and EMF metric documents are appended to `file` (0600), and printed too only with `verbose`, so the
 * terminal shows progress, the key and links rather than metric JSON.
 */
export function functionOutputToFile(file: string, verbose = false): (line: string, from: { function: string; stream: 'stdout' | 'stderr' }) => void {
  // Opened at the first line, so that a start refused (its data dir held by another runtime) creates nothing.
  let fd: number | undefined;
  return (line, from) => {
    if (fd === undefined) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      fd = openSync(file, 'a', 0o600);
    }
    writeSync(fd, `${line}\n`);
    if (verbose) (from.stream === 'stderr' ? process.stderr : process.stdout).write(`${line}\n`);
  };
}
