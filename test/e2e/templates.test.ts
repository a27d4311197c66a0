/**
 * Templates through the local service, as a caller uses them: save a design with placeholders, read and list
 * it, make a video from it with values (its captions say the values), refuse bad templates and bad values
 * naming the field, keep it from another account, delete it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '#infra/scripts/keys.ts';
import type { TestRuntime } from '../support/harness.ts';
import { keyTarget } from '../support/reliability.ts';
import { apiOf, type E2eService, finishedVideo, startE2eService, stopE2eService } from '../support/service.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let other: Record<string, string>;

beforeAll(async () => {
  ({ app, files, receiver } = await startE2eService('vidbot-e2e-templates-', { seconds: 2 }));
  const issued = await createKey(keyTarget(app), { name: 'another account' });
  other = { Authorization: `Bearer ${issued.apiKey}` };
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));

const api = apiOf(() => app);
const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const welcome = {
  name: 'Welcome',
  create_video: false,
  clips: [
    { bot_uid: 'bot_ava', text: 'Hello {{first_name}}, welcome to {{company|our studio}}.', clip_name: 'Hi {{first_name}}' },
    { bot_uid: 'bot_otto', text: 'See you soon.', clip_name: 'Outro' },
  ],
};

const finished = (videoId: string) => finishedVideo({ receiver }, api, videoId);

describe('templates, end to end', () => {
  it('saves a template and lists its variables; reads and lists it; another account sees none of it', async () => {
    const saved = await api('/v1/templates/welcome', json('PUT', welcome));
    expect(saved.status).toBe(200);
    const body = (await saved.json()) as any;
    expect(body).toMatchObject({ uid: 'welcome', name: 'Welcome', clips: welcome.clips });
    expect(body.variables).toEqual([
      { name: 'first_name', required: true },
      { name: 'company', required: false, default: 'our studio' },
    ]);
    expect(((await (await api('/v1/templates/welcome')).json()) as any).variables).toHaveLength(2);
    expect(((await (await api('/v1/templates')).json()) as any).templates.map((t: { uid: string }) => t.uid)).toEqual(['welcome']);

    expect((await api('/v1/templates/welcome', { headers: other })).status).toBe(404);
    expect(((await (await api('/v1/templates', { headers: other })).json()) as any).templates).toEqual([]);
    const foreign = await api('/v1/templates/welcome/videos', json('POST', { webhook: receiver.url, variables: { first_name: 'Eve' } }, other));
    expect(foreign.status).toBe(404);
  });

  it('makes a video from the template: 202 as POST /v1/bot, and its captions say the values', async () => {
    const response = await api('/v1/templates/welcome/videos', json('POST', { webhook: receiver.url, variables: { first_name: 'Ada' } }));
    expect(response.status).toBe(202);
    const created = (await response.json()) as { video_id: string; clips: number };
    expect(created.clips).toBe(2);
    const { event, video } = await finished(created.video_id);
    expect(event.type).toBe('video.completed');
    expect(video.clips.map((c: { clip_name: string }) => c.clip_name)).toEqual(['Hi Ada', 'Outro']);
    const vtt = await (await fetch(video.output.captions.vtt_url)).text();
    expect(vtt.replace(/\s+/g, ' ')).toContain('Hello Ada, welcome to our studio.');
  });

  it('refuses a bad template naming the field, and bad values naming the variable; nothing is created', async () => {
    const bad = await api('/v1/templates/broken', json('PUT', { name: 'x', clips: [{ bot_uid: 'bot_nobody', text: 'Hi {{name' }] }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.details).toEqual([{ path: 'clips[0].text', message: expect.stringMatching(/never closed/) }]);
    const unknownBot = await api('/v1/templates/broken', json('PUT', { name: 'x', clips: [{ bot_uid: 'bot_nobody', text: 'Hi {{name}}' }] }));
    expect(((await unknownBot.json()) as any).error.details[0].path).toBe('clips[0].bot_uid');
    expect((await api('/v1/templates/broken')).status).toBe(404);

    const before = ((await (await api('/v1/video')).json()) as any).videos.length;
    const missing = await api('/v1/templates/welcome/videos', json('POST', { webhook: receiver.url, variables: { company: 'Acme', nickname: 'x' } }));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as any).error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'variables.first_name',
      'variables.nickname',
    ]);
    const tooLong = await api('/v1/templates/welcome/videos', json('POST', { webhook: receiver.url, variables: { first_name: 'x'.repeat(1990) } }));
    expect(((await tooLong.json()) as any).error.details[0].path).toBe('variables.first_name');
    expect(((await (await api('/v1/video')).json()) as any).videos.length).toBe(before);
  });

  it('deletes it: 200 JSON, then 404', async () => {
    const deleted = await api('/v1/templates/welcome', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ uid: 'welcome', deleted: true });
    expect((await api('/v1/templates/welcome')).status).toBe(404);
    expect((await api('/v1/templates/welcome', { method: 'DELETE' })).status).toBe(404);
  });
});
