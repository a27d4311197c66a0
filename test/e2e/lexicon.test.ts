/**
 * The pronunciation lexicon and text markup through the local service, as callers use them: an account saves its
 * lexicon and reads it back, bad entries are refused naming the field; its videos say the replacement while their
 * captions show the written word, with no markup; another account's videos are said as written; a change of the
 * lexicon renders the clip anew, an unchanged one finds it in the cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '#infra/scripts/keys.ts';
import type { TestRuntime } from '../support/harness.ts';
import { keyTarget } from '../support/reliability.ts';
import { apiOf, type E2eService, startE2eService, stopE2eService } from '../support/service.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let other: Record<string, string>;

beforeAll(async () => {
  ({ app, files, receiver } = await startE2eService('vidbot-e2e-lexicon-', { seconds: 2 }));
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

const TEXT = 'The Xq fox is here.<break time="800ms"/> <emphasis>Really</emphasis>, &amp; done.';

/** Makes a voice-only video of TEXT for the account of `headers` and waits for it to settle (reading it as that account). */
async function voiceOf(headers: Record<string, string> = {}) {
  const created = await api(
    '/v1/create_video',
    json('POST', { create_video: false, webhook: receiver.url, clips: [{ bot_uid: 'bot_ava', text: TEXT }] }, headers),
  );
  expect(created.status).toBe(202);
  const { video_id } = (await created.json()) as { video_id: string };
  for (let i = 0; i < 600; i++) {
    const video = (await (await api(`/v1/video/${video_id}`, { headers })).json()) as any;
    if (video.status === 'completed' || video.status === 'failed') {
      expect(video.status, JSON.stringify(video.error)).toBe('completed');
      const vtt = await (await fetch(video.output.captions.vtt_url)).text();
      // The cue lines, read as a player reads WebVTT (which escapes "&" and "<").
      const lines = vtt.split('\n').filter((line) => line && !/^(WEBVTT|\d+|.* --> .*)$/.test(line));
      return { video, captions: lines.map((l) => l.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')) };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`video ${video_id} did not settle`);
}

describe('the lexicon, end to end', () => {
  it('is saved, read back and refused naming the field; another account sees none of it', async () => {
    expect(await (await api('/v1/lexicon')).json()).toEqual({ entries: [], updated_at: null });
    const refused = await api(
      '/v1/lexicon',
      json('PUT', {
        entries: [
          { word: 'Xq', say: 'x' },
          { word: 'xQ', say: '<b>' },
        ],
      }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error.details).toEqual([
      { path: 'entries[1].say', message: 'must be plain text: no markup (< or >)' },
      { path: 'entries[1].word', message: '"xQ" is already entries[0].word (words are unique whatever their case)' },
    ]);
    const saved = await api('/v1/lexicon', json('PUT', { entries: [{ word: 'Xq', say: 'extraordinarily quick' }] }));
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ entries: [{ word: 'Xq', say: 'extraordinarily quick' }], updated_at: expect.any(String) });
    expect(((await (await api('/v1/lexicon')).json()) as any).entries).toEqual([{ word: 'Xq', say: 'extraordinarily quick' }]);
    expect(await (await api('/v1/lexicon', { headers: other })).json()).toEqual({ entries: [], updated_at: null });
  });

  it("says the account's replacement (longer speech) while captions show the written word and no markup; another account's is said as written", async () => {
    const [mine, theirs] = await Promise.all([voiceOf(), voiceOf(other)]);
    for (const { captions } of [mine, theirs]) expect(captions.join(' ')).toBe('The Xq fox is here. Really, & done.');
    expect(mine.video.output.duration_seconds).toBeGreaterThan(theirs.video.output.duration_seconds + 0.4);
    // The break: 0.8 s of silence at least, so both are longer than the words alone would take.
    expect(theirs.video.output.duration_seconds).toBeGreaterThan(2.5);
  }, 180_000);

  it('renders a clip anew when the lexicon changes what it says, and finds it in the cache when not', async () => {
    const again = await voiceOf();
    expect(again.video.clips[0].cached).toBe(true);
    await api(
      '/v1/lexicon',
      json('PUT', {
        entries: [
          { word: 'Xq', say: 'ex queue' },
          { word: 'unused', say: 'never said' },
        ],
      }),
    );
    const changed = await voiceOf();
    expect(changed.video.clips[0].cached).toBe(false);
    expect(changed.captions.join(' ')).toBe('The Xq fox is here. Really, & done.');
    // An entry the text does not use changes nothing.
    await api('/v1/lexicon', json('PUT', { entries: [{ word: 'Xq', say: 'ex queue' }] }));
    expect((await voiceOf()).video.clips[0].cached).toBe(true);
    const removed = await api('/v1/lexicon', { method: 'DELETE' });
    expect(await removed.json()).toEqual({ entries: [], updated_at: null });
    expect(await (await api('/v1/lexicon')).json()).toEqual({ entries: [], updated_at: null });
  }, 180_000);
});
