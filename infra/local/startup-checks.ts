/**
 * What a start checks before it touches anything: that no other runtime uses the data dir (its emulators' files,
 * loopback allow list and dev tenant are that runtime's) and that the gateway's port is free. A failed check is a
 * StartupError: one line naming the fix, printed without a stack by `npm start`.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Creates the lock holding this pid in one step: the pid is written to a file of this process's own, then linked
 * to the lock's name, which fails when the name exists. Another start never sees the lock empty (it would take an
 * empty lock for a crashed one's and remove it).
 */
function tryCreateLock(file: string): boolean {
  const mine = `${file}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(mine, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Removes a lock whose holder is gone. It is first moved to a name of this process's own, so that two starts
 * that both found it stale cannot delete the lock one of them has just made: what was moved is checked again, and
 * a live lock moved by mistake is put back.
 */
function removeStaleLock(file: string, staleHolder: number | undefined): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  const moved = lockHolder(aside);
  if (moved !== staleHolder && moved !== undefined && isRunning(moved)) {
    try {
      linkSync(aside, file);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Takes the data dir for this process (`runtime.lock`, holding its pid), or refuses at once when a running process
 * holds it. A lock left by a process that is gone (killed, crashed) is taken over. Two starts at the same instant:
 * exactly one takes it.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreateLock(file)) return { release: () => lockHolder(file) === process.pid && rmSync(file, { force: true }) };
    const holder = lockHolder(file);
    if (holder !== undefined && holder !== process.pid && isRunning(holder))
      throw new StartupError(
        `another vidbot runtime (pid ${holder}) is using the data dir ${dataDir}; stop it, or start this one on its own: VIDBOT_DATA_DIR=.local-2 PORT=3001 npm start`,
      );
    removeStaleLock(file, holder);
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
