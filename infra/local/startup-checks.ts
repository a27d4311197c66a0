/**
 * What a start checks before it touches anything: that no other runtime uses the data dir (its emulators' files,
 * loopback allow list and dev tenant are that runtime's) and that the gateway's port is free. A failed check is a
 * StartupError: one line naming the fix, printed without a stack by `npm start`.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A start refused for a reason the user fixes: its message is the whole story, the fix included. */
export class StartupError extends Error {}

const LOCK_FILE = 'runtime.lock';

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const lockHolder = (file: string): number | undefined => {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Takes the data dir for this process (`runtime.lock`, holding its pid), or refuses at once when a running process
 * holds it. A lock left by a process that is gone (killed, crashed) is taken over.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return { release: () => lockHolder(file) === process.pid && rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(file);
      if (holder !== undefined && holder !== process.pid && isRunning(holder))
        throw new StartupError(
          `another vidbot runtime (pid ${holder}) is using the data dir ${dataDir}; stop it, or start this one on its own: VIDBOT_DATA_DIR=.local-2 PORT=3001 npm start`,
        );
      rmSync(file, { force: true });
    }
  }
  throw new StartupError(`could not lock the data dir ${dataDir}; if no vidbot runtime is running, delete ${file}`);
}

/** The message for a gateway port another program holds. */
export const portInUse = (port: number) =>
  new StartupError(`port ${port} is already in use (another program, or another vidbot runtime); start on a free one: PORT=${port + 1} npm start`);

/** Refuses a taken gateway port before anything starts (0 asks for a free one, so it is never taken). */
export async function ensurePortFree(port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? portInUse(port) : error));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}
