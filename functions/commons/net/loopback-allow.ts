import { readFileSync, statSync } from 'node:fs';
import { envNames } from '../env-names.ts';

/**
 * The loopback ports a function of the local runtime may reach: the runtime keeps them in a file (its gateway,
 * and the servers a test or the demo explicitly allows: file servers, webhook receivers), never its own data
 * stores. Read when a loopback address is checked, since servers are allowed while the runtime runs. Without
 * the file (a function run in a test's own process, with no runtime) loopback is not restricted by port.
 */
let cache: { path: string; mtimeMs: number; ports: ReadonlySet<number> } | undefined;

export function loopbackPortAllowed(port: number): boolean {
  const path = process.env[envNames.loopbackAllowFile];
  if (!path) return true;
  try {
    const { mtimeMs } = statSync(path);
    if (!cache || cache.path !== path || cache.mtimeMs !== mtimeMs) {
      const ports = (JSON.parse(readFileSync(path, 'utf8')) as { ports?: unknown }).ports;
      cache = { path, mtimeMs, ports: new Set(Array.isArray(ports) ? ports.filter((p): p is number => Number.isInteger(p)) : []) };
    }
    return cache.ports.has(port);
  } catch {
    return false;
  }
}
