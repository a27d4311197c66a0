/**
 * Captions through the local service, as a caller sees them: the spec sample with `captions=burn` gets WebVTT
 * and SRT files linked from its record and its webhook, whose cues say both clips' words in order, timed inside
 * each clip's speech; the burned picture differs from the plain one where the captions go; a voice-only video
 * gets caption files too; every spoken word's time is a JSON file beside them (words_url); deleting a video deletes
 * them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, SPEC_SAMPLE_FIELDS } from '../support/events.ts';
import type { TestRuntime } from '../support/harness.ts';
import { frameRgb } from '../support/render-media.ts';
import { apiOf, type E2eService, finishedVideo, startE2eService, stopE2eService } from '../support/service.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let work: string;

beforeAll(async () => {
  ({ app, files, receiver, work } = await startE2eService('vidbot-e2e-captions-', { seconds: 3 }));
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));

const api = apiOf(() => app);

async function create(fields: Record<string, string>) {
  const { body, contentType } = await multipart({ ...fields, webhook: receiver.url });
  const response = await api('/v1/create_video', { method: 'POST', headers: { 'content-type': contentType }, body });
  expect(response.status).toBe(202);
  return ((await response.json()) as { video_id: string }).video_id;
}

const finished = (videoId: string) => finishedVideo({ receiver }, api, videoId);

/** The cues of a WebVTT file: times in seconds and text. */
function parseVtt(vtt: string) {
  expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
  const seconds = (t: string) => t.split(':').reduce((n, part) => n * 60 + Number(part), 0);
  return vtt
    .slice('WEBVTT\n\n'.length)
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [, timing, ...lines] = block.split('\n');
      const [start, end] = timing!.split(' --> ').map(seconds) as [number, number];
      return { start, end, text: lines.join(' ') };
    });
}

describe('captions, end to end', () => {
  const texts = ['Welcome to the tour. It has captions now.', 'Here we go, in order.'];
  let burned: { event: any; video: any };

  it('the spec sample with captions=burn links WebVTT and SRT from the record and the webhook; the cues say every word, in order', async () => {
    const clips = SPEC_SAMPLE_FIELDS.clips
      .replaceAll('https://www.website.com/background.mp4', `${files.base}/background.mp4`)
      .replace('Welcome to our product tour!', texts[0]!)
      .replace('Let me show you around.', texts[1]!)
      .replace('"reusable_clip": true', '"reusable_clip": false');
    burned = await finished(await create({ ...SPEC_SAMPLE_FIELDS, clips, captions: 'burn' }));
    const { event, video } = burned;
    expect(event.type).toBe('video.completed');
    expect(event.data.captions).toEqual({
      vtt_url: expect.stringMatching(/^http/),
      srt_url: expect.stringMatching(/^http/),
      words_url: expect.stringMatching(/^http/),
    });
    expect(video.output.captions).toEqual({
      vtt_url: expect.stringMatching(/\.vtt/),
      srt_url: expect.stringMatching(/\.srt/),
      words_url: expect.stringMatching(/\.words\.json/),
    });

    const vttResponse = await fetch(video.output.captions.vtt_url);
    expect(vttResponse.status).toBe(200);
    expect(vttResponse.headers.get('content-type')).toMatch(/^text\/vtt/);
    const cues = parseVtt(await vttResponse.text());
    expect(cues.map((c) => c.text).join(' ')).toBe(texts.join(' '));
    const [first, second] = video.clips.map((c: { duration_seconds: number }) => c.duration_seconds) as [number, number];
    const clipOf = (cue: { start: number }) => (cue.start < first ? 0 : 1);
    for (const cue of cues) {
      expect(cue.end).toBeGreaterThan(cue.start);
      // Inside its clip's speech: after the 0.6 s fade-in, before the fade-out, never across the cut.
      const clipStart = clipOf(cue) === 0 ? 0 : first;
      const clipEnd = clipOf(cue) === 0 ? first : first + second;
      expect(cue.start).toBeGreaterThanOrEqual(clipStart + 0.6 - 0.01);
      expect(cue.end).toBeLessThanOrEqual(clipEnd);
    }
    cues.slice(1).forEach((cue, i) => expect(cue.start).toBeGreaterThanOrEqual(cues[i]!.end));
    expect(
      cues
        .filter((c) => clipOf(c) === 1)
        .map((c) => c.text)
        .join(' '),
    ).toBe(texts[1]);

    // Every spoken word with its clip and its time in the video: inside its clip's speech, in order, as the cues say.
    const wordsResponse = await fetch(video.output.captions.words_url);
    expect(wordsResponse.status).toBe(200);
    expect(wordsResponse.headers.get('content-type')).toMatch(/^application\/json/);
    const words = (await wordsResponse.json()) as { text: string; start: number; end: number; clip: number }[];
    expect(words.map((w) => w.text).join(' ')).toBe(texts.join(' ').replace(/[.,]/g, ''));
    expect(words.map((w) => w.clip)).toEqual([...Array(8).fill(0), ...Array(5).fill(1)]);
    for (const [i, word] of words.entries()) {
      expect(word.end).toBeGreaterThan(word.start);
      if (i) expect(word.start).toBeGreaterThanOrEqual(words[i - 1]!.start);
      const clipStart = word.clip === 0 ? 0 : first;
      expect(word.start).toBeGreaterThanOrEqual(clipStart + 0.6 - 0.01);
      expect(word.end).toBeLessThanOrEqual(word.clip === 0 ? first : first + second);
      // Inside the cue that shows it.
      expect(cues.some((c) => c.start <= word.start + 0.001 && word.start < c.end && c.text.includes(word.text))).toBe(true);
    }

    const srt = await fetch(video.output.captions.srt_url);
    expect(srt.status).toBe(200);
    const srtText = await srt.text();
    expect(srtText).toMatch(/^1\r\n\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d\r\nWelcome to the tour\.\r\n/);
    expect(srtText.split('\r\n\r\n').filter(Boolean)).toHaveLength(cues.length);
  }, 150_000);

  it('the burned video has the captions in its picture, where the plain one has none', async () => {
    const plainId = await create({
      create_video: 'true',
      clips: JSON.stringify([{ bot_uid: 'bot_ava', text: texts[0], bot_position: 'bottom-right' }]),
    });
    const burnId = await create({
      create_video: 'true',
      captions: 'burn',
      clips: JSON.stringify([{ bot_uid: 'bot_ava', text: texts[0], bot_position: 'bottom-right' }]),
    });
    const [plain, burn] = [await finished(plainId), await finished(burnId)];
    const cue = parseVtt(await (await fetch(burn.video.output.captions.vtt_url)).text())[0]!;
    const paths = [join(work, 'plain.mp4'), join(work, 'burn.mp4')];
    for (const [i, done] of [plain, burn].entries())
      await writeFile(paths[i]!, Buffer.from(await (await fetch(done.video.output.download_url)).arrayBuffer()));
    const at = (cue.start + cue.end) / 2;
    const [a, b] = [await frameRgb(paths[0]!, at), await frameRgb(paths[1]!, at)];
    // Rows and columns where the two pictures differ: the bottom band, left of the presenter (x < 960).
    let differing = 0;
    let minY = Infinity;
    let maxX = 0;
    for (let y = 0; y < 720; y++) {
      for (let x = 0; x < 1280; x++) {
        const i = (y * 1280 + x) * 3;
        if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) <= 90) continue;
        differing++;
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
      }
    }
    // Its white letters at least (the translucent box over the dark backdrop differs by less than the threshold).
    expect(differing).toBeGreaterThan(1500);
    expect(minY).toBeGreaterThan(540);
    expect(maxX).toBeLessThan(960);
  }, 150_000);

  it('a voice-only video has caption files too', async () => {
    const { event, video } = await finished(
      await create({ create_video: 'false', clips: JSON.stringify([{ bot_uid: 'bot_otto', text: 'Only my voice, with captions.' }]) }),
    );
    expect(event.data.audio_url).toBeTruthy();
    expect(event.data.captions.vtt_url).toBeTruthy();
    const cues = parseVtt(await (await fetch(video.output.captions.vtt_url)).text());
    expect(cues.map((c) => c.text).join(' ')).toBe('Only my voice, with captions.');
    expect(cues[0]!.start).toBeLessThan(0.3);
    expect(cues.at(-1)!.end).toBeLessThanOrEqual(video.output.duration_seconds + 0.05);
    const words = (await (await fetch(video.output.captions.words_url)).json()) as { text: string }[];
    expect(words.map((w) => w.text)).toEqual(['Only', 'my', 'voice', 'with', 'captions']);
  }, 120_000);

  it('deleting a video deletes its caption files', async () => {
    const { vtt_url, srt_url, words_url } = burned.video.output.captions;
    expect((await api(`/v1/video/${burned.video.video_id}`, { method: 'DELETE' })).status).toBe(200);
    for (const url of [vtt_url, srt_url, words_url]) expect((await fetch(url)).status).toBe(404);
  });

  it('a bad captions value is a 400 that names the field', async () => {
    const { body, contentType } = await multipart({ webhook: receiver.url, captions: 'on', clips: `[{"bot_uid": 'bot_ava', "text": 'Hi'}]` });
    const response = await api('/v1/bot', { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.details).toEqual([{ path: 'captions', message: 'must be one of none, burn' }]);
  });

  it('the OpenAPI document describes captions', async () => {
    const doc = (await (await api('/v1/openapi.json')).json()) as any;
    expect(doc.components.schemas.CreateVideoRequest.properties.captions).toMatchObject({ enum: ['none', 'burn'], default: 'none' });
  });
});
