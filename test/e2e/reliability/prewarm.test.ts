/**
 * `npm start` (prewarm: true) starts one execution environment of each function a video passes through before it
 * says it is ready, as Lambda's provisioned concurrency does, so the first video after start does not wait for
 * their cold starts (docs/performance.md, "The first render"). A runtime without it starts none until asked;
 * the prewarmed environments serve the first requests (no second one is started for them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WARM_FUNCTIONS } from '../../../infra/local/runtime.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

const VIDEO_PATH = [...WARM_FUNCTIONS];
let app: TestRuntime | undefined;

afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const environments = (runtime: TestRuntime) =>
  Object.fromEntries(VIDEO_PATH.map((name) => [name, runtime.runtime.functions.get(name)!.environments]));

describe('prewarm', () => {
  it('starts one environment of each function on the video path before the runtime is ready, and those serve the first requests', async () => {
    expect(VIDEO_PATH).toEqual(expect.arrayContaining(['authorizer', 'createVideo', 'videos', 'fetcher', 'render', 'assemble', 'notifier']));
    app = await startTestRuntime({ prewarm: true });
    expect(environments(app)).toEqual(Object.fromEntries(VIDEO_PATH.map((name) => [name, 1])));
    expect(app.runtime.functions.get('bots')!.environments).toBe(0);
    const created = await fetch(`${app.baseUrl}/v1/bot`, {
      method: 'POST',
      headers: { ...app.authHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: 'https://example.com/hook', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi.' }] }),
    });
    expect(created.status).toBe(202);
    expect(app.runtime.functions.get('createVideo')!.environments).toBe(1);
  }, 120_000);

  it('is off unless asked: no environment until a request needs one', async () => {
    app = await startTestRuntime();
    expect(environments(app)).toEqual(Object.fromEntries(VIDEO_PATH.map((name) => [name, 0])));
  }, 60_000);
});
