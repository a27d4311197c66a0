import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePortFree, lockDataDir, StartupError } from '#infra/local/startup-checks.ts';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vidbot-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('holds the data dir for this process until released', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, 'runtime.lock'), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(join(dir, 'runtime.lock'))).toBe(false);
  });

  it('refuses a dir a running process holds, and names the way out', () => {
    const dir = freshDir();
    // The parent of this worker: a process that runs for the whole test.
    writeFileSync(join(dir, 'runtime.lock'), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(StartupError);
    expect(() => lockDataDir(dir)).toThrow(/another vidbot runtime \(pid \d+\) is using the data dir .*VIDBOT_DATA_DIR=.* PORT=3001 npm start/);
    expect(readFileSync(join(dir, 'runtime.lock'), 'utf8').trim()).toBe(String(process.ppid));
  });

  it('takes over a lock left by a process that is gone', () => {
    const dir = freshDir();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(dir, 'runtime.lock'), `${gone}\n`);
    lockDataDir(dir).release();
    writeFileSync(join(dir, 'runtime.lock'), 'not a pid\n');
    lockDataDir(dir).release();
  });
});

describe('ensurePortFree', () => {
  it('refuses a taken port with the next one to try, and passes a free one', async () => {
    const server = createServer();
    const port = await new Promise<number>((ok) => server.listen(0, '127.0.0.1', () => ok((server.address() as { port: number }).port)));
    await expect(ensurePortFree(port)).rejects.toThrow(
      `port ${port} is already in use (another program, or another vidbot runtime); start on a free one: PORT=${port + 1} npm start`,
    );
    await new Promise((ok) => server.close(ok));
    await expect(ensurePortFree(port)).resolves.toBeUndefined();
    await expect(ensurePortFree(0)).resolves.toBeUndefined();
  });
});
