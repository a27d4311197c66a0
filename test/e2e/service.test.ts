import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '#functions/media/media.ts';
import { multipart, SPEC_SAMPLE_FIELDS } from '../support/events.ts';
import type { TestRuntime } from '../support/harness.ts';
import { eventually, probeFile } from '../support/media.ts';
import { apiOf, type E2eService, startE2eService, stopE2eService } from '../support/service.ts';

/**
 * The whole service on the local runtime, through HTTP, as a caller uses it: the spec's sample request
 * (multipart, single-quoted clips) with a local background video and a local webhook receiver, down to the
 * MP4 that comes out.
 */
let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let work: string;

beforeAll(async () => {
  ({ app, files, receiver, work } = await startE2eService('vidbot-e2e-', { seconds: 3 }));
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));

const api = apiOf(() => app);

/** The spec sample with our background and webhook, short texts to keep CI fast. */
function sampleFields() {
  return {
    ...SPEC_SAMPLE_FIELDS,
    webhook: receiver.url,
    clips: SPEC_SAMPLE_FIELDS.clips
      .replaceAll('https://www.website.com/background.mp4', `${files.base}/background.mp4`)
      .replace('Welcome to our product tour!', 'Welcome to the tour.')
      .replace('Let me show you around.', 'Here we go.'),
  };
}

describe('the spec sample request, end to end', () => {
  let videoId: string;

  it('answers 202 with an id, the status and the URL of the video', async () => {
    const { body, contentType } = await multipart(sampleFields());
    const response = await api('/v1/create_video', { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(response.status).toBe(202);
    const created = (await response.json()) as { video_id: string; status: string; url: string };
    expect(created).toMatchObject({ status: 'queued', url: `${app.baseUrl}/v1/video/${created.video_id}` });
    videoId = created.video_id;
  });

  it('renders, calls the webhook once with a verifiable signature, and the video is downloadable', async () => {
    await receiver.waitForDelivered(1, 120_000);
    const delivery = receiver.delivered().find((r) => r.event?.data.video_id === videoId)!;
    expect(delivery.verified).toBe(true);
    expect(delivery.headers['webhook-id']).toBe(`evt_${videoId}_completed`);
    const event = delivery.event!;
    expect(event.type).toBe('video.completed');
    expect(event.data).toMatchObject({ video_id: videoId, status: 'completed' });
    expect(event.data.clips).toHaveLength(2);

    const video = (await (await api(`/v1/video/${videoId}`)).json()) as any;
    expect(video).toMatchObject({ status: 'completed', progress: { clips_total: 2, clips_rendered: 2 }, webhook: { state: 'delivered' } });
    expect(video.webhook.attempts[0].status_code).toBe(204);
    const clipSum = video.clips.reduce((n: number, c: { duration_seconds: number }) => n + c.duration_seconds, 0);

    const download = await fetch(video.output.download_url);
    expect(download.status).toBe(200);
    const path = join(work, 'out.mp4');
    await writeFile(path, Buffer.from(await download.arrayBuffer()));
    const probed = await probeFile(path);
    const videoStream = probed.streams.find((s) => s.codec_type === 'video')!;
    expect(videoStream).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, pix_fmt: 'yuv420p', r_frame_rate: '30/1' });
    expect(probed.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(Number(probed.format.duration)).toBeCloseTo(clipSum, 0);
    expect(Number(probed.format.duration)).toBeCloseTo(video.output.duration_seconds, 1);
    // Each clip: its speech plus the 0.6 s fade in and 0.6 s fade out.
    for (const clip of video.clips) expect(clip.duration_seconds).toBeGreaterThan(1.2);

    // Its poster: a JPEG of the video's own size, taken once the fade-in is over (not a black frame), in the
    // record and in the webhook.
    expect(event.data.thumbnail_url).toBeTruthy();
    const poster = await fetch(video.output.thumbnail_url);
    expect(poster.status).toBe(200);
    const jpeg = Buffer.from(await poster.arrayBuffer());
    expect(imageSize(jpeg)).toMatchObject({ type: 'jpg', width: 1280, height: 720 });
    const posterPath = join(work, 'poster.jpg');
    await writeFile(posterPath, jpeg);
    const { stdout } = await runFfmpeg(['-i', posterPath, '-vf', 'scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {
      budgetSeconds: 30,
      captureStdout: true,
    });
    expect(stdout[0]!, 'mean brightness of the poster').toBeGreaterThan(30);
  }, 150_000);

  it('GET /v1/video/{id}/download redirects to a fresh link of the file', async () => {
    const response = await api(`/v1/video/${videoId}/download`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const file = await fetch(response.headers.get('location')!);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
  });

  it('lists the video and counts it on the account', async () => {
    const list = (await (await api('/v1/video')).json()) as { videos: { video_id: string }[] };
    expect(list.videos.map((v) => v.video_id)).toContain(videoId);
    const account = (await (await api('/v1/account')).json()) as any;
    expect(account.videos.by_status.completed).toBeGreaterThanOrEqual(1);
  });

  it('kept the reusable clip: it is listed, and a request by clip_uid reuses it without rendering', async () => {
    const kept = (await (await api('/v1/clips')).json()) as { clips: { clip_uid: string; clip_name: string }[] };
    expect(kept.clips).toEqual([expect.objectContaining({ clip_name: 'Tour' })]);
    const response = await api('/v1/bot', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: receiver.url, clips: [{ clip_uid: kept.clips[0]!.clip_uid }] }),
    });
    expect(response.status).toBe(202);
    const { video_id } = (await response.json()) as { video_id: string };
    const video = await eventually(
      async () => {
        const v = (await (await api(`/v1/video/${video_id}`)).json()) as any;
        return v.status === 'completed' ? v : undefined;
      },
      60_000,
      'the reused clip video to complete',
    );
    expect(video.clips[0]).toMatchObject({ clip_name: 'Tour', status: 'rendered' });
  }, 90_000);
});

describe('voice only', () => {
  it('create_video=false produces one MP3 of all clips and an audio_url', async () => {
    const body = new URLSearchParams({
      webhook: receiver.url,
      create_video: '0',
      clips: `[{"bot_uid": 'bot_otto', "text": 'One.'}, {"bot_uid": 'bot_maya', "text": 'Two.'}]`,
    });
    const response = await api('/v1/bot', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    expect(response.status).toBe(202);
    const { video_id } = (await response.json()) as { video_id: string };
    const delivery = await eventually(
      async () => receiver.delivered().find((r) => r.event?.data.video_id === video_id),
      90_000,
      'the voice-only webhook',
    );
    expect(delivery.event!.data.audio_url).toBeTruthy();
    expect(delivery.event!.data.video_url).toBeUndefined();
    const audio = await fetch(delivery.event!.data.audio_url);
    const path = join(work, 'voice.mp3');
    await writeFile(path, Buffer.from(await audio.arrayBuffer()));
    const probed = await probeFile(path);
    expect(probed.streams.map((s) => s.codec_type)).toEqual(['audio']);
    expect(probed.streams[0]!.codec_name).toBe('mp3');
    expect(Number(probed.format.duration)).toBeGreaterThan(0.5);
  }, 120_000);
});

describe('voices', () => {
  it('lists the voices of a language, and a clip spoken in Spanish by a built-in bot completes', async () => {
    const listed = (await (await api('/v1/voices?language=es')).json()) as { voices: { id: string; engine: string; language: string }[] };
    expect(listed.voices.map((v) => v.id)).toEqual(expect.arrayContaining(['espeak:es+f3', 'espeak:es+m3', 'espeak:es-419+f3']));
    expect(listed.voices.every((v) => v.engine === 'espeak' && v.language.startsWith('es'))).toBe(true); // no Polly locally
    const bot = (await (await api('/v1/bot/bot_maya')).json()) as { voice: string };
    expect(bot.voice).toBe('espeak:en-us+f2');

    const unknown = await api('/v1/bot', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: receiver.url, clips: [{ bot_uid: 'bot_maya', text: 'Hola', voice: 'polly:Lucia' }] }),
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as any).error.details).toEqual([
      { path: 'clips[0].voice', message: 'unknown voice "polly:Lucia"; list the voices with GET /v1/voices' },
    ]);

    const clips = `[{"bot_uid": 'bot_maya', "text": '¡Hola a todos! Bienvenidos al programa.', "voice": 'espeak:es+f3'}]`;
    const { body, contentType } = await multipart({ webhook: receiver.url, clips });
    const response = await api('/v1/bot', { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(response.status).toBe(202);
    const { video_id } = (await response.json()) as { video_id: string };
    const video = await eventually(
      async () => {
        const v = (await (await api(`/v1/video/${video_id}`)).json()) as any;
        return v.status === 'completed' || v.status === 'failed' ? v : undefined;
      },
      90_000,
      'the Spanish video to end',
    );
    expect(video.status).toBe('completed');
    expect(video.clips[0].duration_seconds).toBeGreaterThan(1.5);
  }, 120_000);
});

describe('Idempotency-Key', () => {
  const body = () => JSON.stringify({ webhook: receiver.url, create_video: false, clips: [{ bot_uid: 'bot_leo', text: 'Only once.' }] });

  it('returns the first response for a retried create and creates nothing new', async () => {
    const headers = { 'content-type': 'application/json', 'Idempotency-Key': 'order-42' };
    const first = await api('/v1/bot', { method: 'POST', headers, body: body() });
    const second = await api('/v1/bot', { method: 'POST', headers, body: body() });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(((await second.json()) as { video_id: string }).video_id).toBe(((await first.json()) as { video_id: string }).video_id);
  });

  it('recognises a retried multipart create (a new boundary, the same fields)', async () => {
    const fields = { webhook: receiver.url, create_video: 'false', clips: `[{"bot_uid": 'bot_maya', "text": 'Retry me.'}]` };
    const send = async () => {
      const { body, contentType } = await multipart(fields);
      return api('/v1/create_video', { method: 'POST', headers: { 'content-type': contentType, 'Idempotency-Key': 'curl-retry-7' }, body });
    };
    const [first, second] = [await send(), await send()];
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(((await second.json()) as { video_id: string }).video_id).toBe(((await first.json()) as { video_id: string }).video_id);
  });

  it('refuses the same key with another body', async () => {
    const response = await api('/v1/bot', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': 'order-42' },
      body: body().replace('Only once.', 'Something else.'),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as any).error.code).toBe('idempotency_key_reused');
  });
});

describe('the rest of the surface', () => {
  it('GET /v1/bot and POST /v1/bot/ list the same four bots; GET /v1/bot/{uid} reads one', async () => {
    const viaGet = (await (await api('/v1/bot')).json()) as { bots: { uid: string; preview_image_url: string }[] };
    const viaPost = (await (await api('/v1/bot/', { method: 'POST' })).json()) as { bots: { uid: string }[] };
    expect(viaGet.bots.map((b) => b.uid)).toEqual(['bot_ava', 'bot_leo', 'bot_maya', 'bot_otto']);
    expect(viaPost.bots.map((b) => b.uid)).toEqual(viaGet.bots.map((b) => b.uid));
    const preview = await fetch(viaGet.bots[0]!.preview_image_url);
    expect(preview.status).toBe(200);
    expect(
      Buffer.from(await preview.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect((await api('/v1/bot/bot_maya')).status).toBe(200);
    expect((await api('/v1/bot/bot_nobody')).status).toBe(404);
  });

  it('serves an OpenAPI 3.1 document generated from the request schemas', async () => {
    const doc = (await (await api('/v1/openapi.json')).json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/bot', '/v1/bot/', '/v1/create_video', '/v1/video/{id}', '/v1/account']));
    expect(doc.components.schemas.CreateVideoRequest.properties.clips).toBeTruthy();
  });

  it('answers bad input with 400 naming the field, and a bad key with 401', async () => {
    const bad = await api('/v1/bot', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"webhook":"https://e.com","clips":[{"bot_uid":"bot_ava","text":"x","bot_position":"middle"}]}',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.details[0].path).toBe('clips[0].bot_position');
    // Raw bytes that are not UTF-8 reach the handler as they are (JSON is a binary media type) and are refused.
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"webhook":"https://e.com","clips":[{"bot_uid":"bot_ava","text":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}]}'),
    ]);
    const badBytes = await api('/v1/bot', { method: 'POST', headers: { 'content-type': 'application/json' }, body: invalidUtf8 });
    expect(badBytes.status).toBe(400);
    expect(((await badBytes.json()) as any).error.message).toMatch(/UTF-8/);
    const latin1 = await api('/v1/bot', { method: 'POST', headers: { 'content-type': 'application/json; charset=latin1' }, body: '{}' });
    expect(latin1.status).toBe(415);
    const unauthorized = await fetch(`${app.baseUrl}/v1/bot`, { method: 'POST', headers: { Authorization: 'Bearer vb_nope' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="vidbot"');
  });
});
