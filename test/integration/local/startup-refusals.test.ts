/**
 * `npm start` refused for a reason the user fixes: one line naming the fix, no stack, and nothing of the data dir
 * touched. Runs the entry point as `npm start` does (infra/local/main.ts with tsx), each time refused before it starts.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';

const TSX = resolve(REPO_ROOT, 'node_modules/.bin/tsx');

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done) => {
    execFile(TSX, ['infra/local/main.ts'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

const oneLine = (stderr: string) => stderr.trim().split('\n');

describe('npm start refused: one line naming the fix', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidbot-refused-'));
  let server: Server;
  let takenPort: number;
  let holder: ChildProcess;

  beforeAll(async () => {
    server = createServer();
    takenPort = await new Promise<number>((ok) => server.listen(0, '127.0.0.1', () => ok((server.address() as { port: number }).port)));
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  });
  afterAll(() => {
    server.close();
    holder.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('names the variable and its fix for a malformed DEV_API_KEY or PORT', async () => {
    const badKey = await start({ VIDBOT_DATA_DIR: dataDir, DEV_API_KEY: 'not-a-key' });
    expect(badKey.code).toBe(1);
    expect(oneLine(badKey.stderr)).toEqual([expect.stringMatching(/DEV_API_KEY must be vb_.*DEV_API_KEY= npm start$/)]);
    const badPort = await start({ VIDBOT_DATA_DIR: dataDir, PORT: 'eighty' });
    expect(oneLine(badPort.stderr)).toEqual([expect.stringMatching(/PORT must be a number from 0 to 65535, got "eighty"/)]);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 120_000);

  it('names a free port when the port is taken, and leaves the data dir as it was', async () => {
    const taken = await start({ VIDBOT_DATA_DIR: dataDir, PORT: String(takenPort) });
    expect(taken.code).toBe(1);
    expect(oneLine(taken.stderr)).toEqual([expect.stringContaining(`port ${takenPort} is already in use`)]);
    expect(taken.stderr).toContain(`PORT=${takenPort + 1} npm start`);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 60_000);

  it('refuses a data dir another running runtime holds, before writing anything', async () => {
    const lock = join(dataDir, 'runtime.lock');
    writeFileSync(lock, `${holder.pid}\n`);
    writeFileSync(join(dataDir, 'loopback-allow.json'), '{"ports":[9999]}');
    const before = readdirSync(dataDir).map((name) => [name, statSync(join(dataDir, name)).mtimeMs]);
    const refused = await start({ VIDBOT_DATA_DIR: dataDir, PORT: '0' });
    expect(refused.code).toBe(1);
    expect(oneLine(refused.stderr)).toEqual([expect.stringContaining(`another vidbot runtime (pid ${holder.pid}) is using the data dir ${dataDir}`)]);
    expect(readdirSync(dataDir).map((name) => [name, statSync(join(dataDir, name)).mtimeMs])).toEqual(before);
    rmSync(lock);
  }, 60_000);
});
