/**
 * `vidbot bot create --video me.mp4 --consent --wait` against the local runtime, as a user runs it: the CLI asks
 * for an upload, PUTs the file to the S3 emulator through the presigned link, names it as `video_upload`, and waits
 * for the preparation, which reads the uploaded file. A 2-s recording is refused by the preparation as
 * `video_too_short` (exit 6), so the whole path runs without minutes of face tracking.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ffmpegPath } from '#media/binaries';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';

const exec = promisify(execFile);
let app: TestRuntime;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'vidbot-video-upload-e2e-'));
  app = await startTestRuntime();
}, 120_000);
afterAll(async () => {
  await app?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const vidbot = (args: string[]) =>
  exec(process.execPath, ['sdk/typescript/bin/vidbot.mjs', ...args], {
    env: { ...process.env, VIDBOT_CONFIG: join(work, 'config.json'), VIDBOT_BASE_URL: app.baseUrl, VIDBOT_API_KEY: app.apiKey },
  }).then(
    (done) => ({ code: 0, ...done }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );

it('bot create --video uploads the recording, names it as video_upload and waits: the preparation read the uploaded file', async () => {
  const recording = join(work, 'me.mp4');
  await exec(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-t', '2', '-pix_fmt', 'yuv420p', recording]);
  const made = await vidbot(['bot', 'create', 'me-uploaded', '--name', 'Me', '--video', recording, '--consent', '--wait', '--json']);
  expect(made.code, made.stderr).toBe(6);
  const bot = JSON.parse(made.stdout) as { uid: string; kind: string; status: string; error: { code: string }; consent: { given: boolean } };
  expect(bot).toMatchObject({ uid: 'me-uploaded', kind: 'video', status: 'failed', error: { code: 'video_too_short' }, consent: { given: true } });
}, 300_000);
