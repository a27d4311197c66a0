/**
 * Which loopback ports the local runtime's functions may reach (its address guard in local mode reads the file,
 * see functions/commons/net/loopback-allow.ts): the runtime's gateway (webhook inbox addresses), the ports given
 * at start (`VIDBOT_LOOPBACK_ALLOW=9999,8080` for a developer's receiver), and the servers a test or the demo
 * starts, which allow themselves here. Never the runtime's data stores.
 */
import { chmodSync, writeFileSync } from 'node:fs';

const fileSets = new Map<string, Set<number>>();
const processPorts = new Set<number>();

function write(path: string) {
  const ports = [...new Set([...(fileSets.get(path) ?? []), ...processPorts])].sort((a, b) => a - b);
  writeFileSync(path, JSON.stringify({ ports }), { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** A runtime's allow file, with its own ports; kept up to date until `forget`. */
export function allowFile(path: string, ports: number[]) {
  fileSets.set(path, new Set(ports));
  write(path);
  return {
    allow(port: number) {
      fileSets.get(path)?.add(port);
      write(path);
    },
    forget() {
      fileSets.delete(path);
    },
  };
}

/** A server of this process (a test's file server or webhook receiver, the demo's) that runtimes may reach. */
export function allowLoopbackPort(port: number) {
  processPorts.add(port);
  for (const path of fileSets.keys()) write(path);
}

/** `VIDBOT_LOOPBACK_ALLOW`: comma-separated ports. */
export function parseLoopbackPorts(value: string | undefined): number[] {
  if (!value?.trim()) return [];
  return value.split(',').map((part) => {
    const port = Number(part.trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`VIDBOT_LOOPBACK_ALLOW must list ports (1-65535), got "${part}"`);
    return port;
  });
}
