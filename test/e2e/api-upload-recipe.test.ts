/**
 * docs/api.md's upload recipe runs as written: its lines (from the WAV it makes to the PUT of the file) are pasted
 * into bash, in a folder with the repository's node_modules, with BASE and H set as the page's block sets them.
 * The upload it made is then named by a voice-only video, which the service accepts only for an uploaded file.
 */
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';

let app: TestRuntime;
let workDir: string;

beforeAll(async () => {
  app = await startTestRuntime({ consumers: false });
  workDir = await mkdtemp(join(tmpdir(), 'vidbot-api-recipe-'));
  symlinkSync(resolve(REPO_ROOT, 'node_modules'), join(workDir, 'node_modules'));
}, 240_000);
afterAll(async () => {
  await app?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** The recipe's lines on the page: from the line making me.wav to the PUT's last line. */
function uploadRecipe(): string {
  const lines = readFileSync(resolve(REPO_ROOT, 'docs', 'api.md'), 'utf8').split('\n');
  const first = lines.findIndex((line) => line.includes('"me.wav"'));
  const last = lines.findIndex((line, i) => i > first && line.includes('--data-binary @me.wav'));
  expect(first, 'the recipe makes its own me.wav').toBeGreaterThan(0);
  expect(last, 'the recipe PUTs me.wav').toBeGreaterThan(first);
  return lines.slice(first, last + 1).join('\n');
}

describe("docs/api.md's upload recipe", () => {
  it('makes its file, uploads it, and the upload can be named', async () => {
    const script = `set -e\nBASE=${app.baseUrl}\nH="Authorization: Bearer ${app.apiKey}"\n${uploadRecipe()}\necho "$UPLOAD"`;
    // Not spawnSync: the service runs in this process and must answer while bash runs.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const bash = spawn('bash', ['--norc', '--noprofile'], { cwd: workDir, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      bash.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      bash.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      bash.on('close', (status) => done({ status, stdout, stderr }));
      bash.stdin.end(script);
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const upload = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { upload_id: string; kind: string; size: number };
    expect(upload).toMatchObject({ kind: 'audio', size: readFileSync(join(workDir, 'me.wav')).length });
    const created = await fetch(`${app.baseUrl}/v1/bot`, {
      method: 'POST',
      headers: { ...app.authHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook: 'https://hooks.example.com/v',
        create_video: false,
        clips: [{ bot_uid: 'bot_ava', audio_upload: upload.upload_id }],
      }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
  }, 240_000);
});
