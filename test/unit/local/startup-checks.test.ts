import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
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
  it('lets exactly one of several starts at the same instant take the dir, over and over', async () => {
    // The lock module bundled once to plain JS, so that each child loads it in milliseconds.
    const bundle = join(freshDir(), 'startup-checks.mjs');
    buildSync({
      entryPoints: [new URL('../../../infra/local/startup-checks.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
    });
    for (let round = 0; round < 4; round++) {
      const dir = freshDir();
      // Each child says it is ready, waits for the word on stdin, tries; a taker holds the lock until its stdin ends.
      const script = `
        import { lockDataDir } from ${JSON.stringify(bundle)};
        process.stdout.write('ready\\n');
        process.stdin.once('data', () => {
          try { lockDataDir(${JSON.stringify(dir)}); process.stdout.write('took'); process.stdin.on('end', () => process.exit(0)); }
          catch (error) { process.stdout.write(error.constructor.name); process.exit(0); }
        });`;
      const children = Array.from({ length: 6 }, () =>
        spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }),
      );
      const outputs = children.map((child) => {
        let out = '';
        const ready = new Promise<void>((resolve) =>
          child.stdout.on('data', (chunk) => {
            out += chunk;
            if (out.startsWith('ready\n')) resolve();
          }),
        );
        const answered = new Promise<string>((resolve) => child.stdout.on('data', () => out.length > 6 && resolve(out.slice(6))));
        return { ready, answered };
      });
      await Promise.all(outputs.map((o) => o.ready));
      for (const child of children) child.stdin.write('go\n');
      const answers = await Promise.all(outputs.map((o) => o.answered));
      for (const child of children) child.stdin.end();
      expect(answers.filter((answer) => answer === 'took')).toHaveLength(1);
      expect(answers.filter((answer) => answer === 'StartupError')).toHaveLength(5);
    }
  }, 60_000);
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
