/**
 * The deployment smoke test (`npm run smoke`, infra/scripts/smoke.ts) run against the local runtime, so that it
 * keeps passing against the service it is meant to check: health, JSON 401s, listing bots through POST /v1/bot/, a
 * voice-only video to completion and its MP3 download. Also the CLI itself, failing with a clear message and exit
 * code 1 on a bad key.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { baseUrlOf, looksLikeMp3, runSmoke } from '#infra/scripts/smoke.ts';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';

const exec = promisify(execFile);
let app: TestRuntime;

beforeAll(async () => {
  app = await startTestRuntime();
}, 120_000);
afterAll(() => app?.stop());

it('passes against the local runtime, with the webhook it uses on AWS', async () => {
  const lines: string[] = [];
  const result = await runSmoke({
    url: `${app.baseUrl}/`,
    key: app.apiKey,
    timeoutSeconds: 90,
    pollIntervalMs: 500,
    log: (line) => lines.push(line),
  });
  expect(result.checks.map((c) => c.name)).toEqual([
    'GET /health',
    'GET /v1/video without a key: JSON 401',
    'GET /v1/video with an unknown key: JSON 401',
    'POST /v1/bot/ lists the bots',
    'POST /v1/bot creates a voice-only video',
    'GET /v1/video/{id} until completed',
    'GET /v1/video/{id}/download is an MP3',
  ]);
  expect(result.videoId).toMatch(/^vid_/);
  expect(result.bytes).toBeGreaterThan(1000);
  expect(lines.at(-1)).toMatch(/^smoke: all 7 checks passed/);
}, 120_000);

it('the CLI stops at the first failing check with its reason and exit code 1', async () => {
  const run = exec(process.execPath, ['--import', 'tsx', 'infra/scripts/smoke.ts', '--url', app.baseUrl, '--key', 'vb_not-the-right-key'], {
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  const failure = await run.then(
    () => undefined,
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  expect(failure?.code).toBe(1);
  expect(failure?.stdout).toMatch(/^ok +GET \/health/m);
  expect(failure?.stdout).toMatch(/^FAIL +POST \/v1\/bot\/ lists the bots/m);
  expect(failure?.stderr).toMatch(/smoke: FAILED: POST \/v1\/bot\/ \(list bots\) with the key: expected 200, got 401 .*unauthorized/);
  expect(failure?.stdout).not.toMatch(/creates a voice-only video/);
}, 60_000);

it('tells an MP3 by its first bytes', () => {
  expect(looksLikeMp3(Buffer.from('ID3\x04\x00\x00', 'latin1'))).toBe(true);
  expect(looksLikeMp3(Uint8Array.from([0xff, 0xfb, 0x90, 0x64]))).toBe(true); // MPEG-1 layer III frame
  expect(looksLikeMp3(Uint8Array.from([0xff, 0xf1, 0x50, 0x80]))).toBe(false); // ADTS AAC: sync, but layer 0
  expect(looksLikeMp3(Buffer.from('\x00\x00\x00\x18ftypmp42', 'latin1'))).toBe(false);
  expect(looksLikeMp3(Buffer.from('<Error>', 'utf8'))).toBe(false);
});

it('takes the ApiUrl output as printed, the local URL, and an execute-api URL without its stage', () => {
  expect(baseUrlOf('https://abc123.execute-api.eu-west-1.amazonaws.com/prod/')).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/prod');
  expect(baseUrlOf('https://abc123.execute-api.eu-west-1.amazonaws.com')).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/prod');
  expect(baseUrlOf('http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000');
  expect(baseUrlOf('https://api.example.com/video/')).toBe('https://api.example.com/video');
});
