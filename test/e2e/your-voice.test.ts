/**
 * A clip that speaks the caller's own recording, through the local runtime as a caller uses it: POST /v1/uploads,
 * the PUT to the presigned link, a clip with `audio_upload` and its transcript; the signed webhook arrives and the
 * video's words_url lists the transcript's words, each start within 200 ms of pocketsphinx's own hearing of the
 * same prepared recording (a LibriVox sentence of Debian's pocketsphinx-testdata, which .ci/run installs). Another
 * account naming that upload in its clip is a 400 naming the field.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptWords } from '#functions/render/speech/alignment.ts';
import { createKey } from '#infra/scripts/keys.ts';
import { pocketsphinxInstalled } from '#infra/voices/wer.ts';
import { prepareRecording } from '#media/recording';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';
import { librivoxInstalled, librivoxSentences, pocketsphinxWords } from '../support/librivox.ts';
import { keyTarget } from '../support/reliability.ts';
import { apiOf, finishedVideo } from '../support/service.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const available = librivoxInstalled() && (await pocketsphinxInstalled());
let app: TestRuntime;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let work: string;
let other: Record<string, string>;

beforeAll(async () => {
  if (!available && process.env.CI) throw new Error('CI must install pocketsphinx pocketsphinx-en-us pocketsphinx-testdata (.ci/run)');
  work = await mkdtemp(join(tmpdir(), 'vidbot-e2e-your-voice-'));
  app = await startTestRuntime();
  receiver = await startWebhookReceiver(app.webhookSecret);
  other = { Authorization: `Bearer ${(await createKey(keyTarget(app), { name: 'another account' })).apiKey}` };
}, 120_000);
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const api = apiOf(() => app);
const json = (body: unknown) => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe.skipIf(!available && !process.env.CI)('your own voice, end to end', () => {
  it('upload, PUT, a clip with audio_upload and its transcript: the signed webhook, and words_url on the spoken times', async () => {
    const sentence = librivoxSentences()[0]!;
    const bytes = await readFile(sentence.path);
    const asked = await api('/v1/uploads', json({ content_type: 'audio/wav', size: bytes.length }));
    expect(asked.status).toBe(201);
    const upload = (await asked.json()) as { upload_id: string; upload_url: string };
    const put = await fetch(upload.upload_url, { method: 'PUT', headers: { 'Content-Type': 'audio/wav' }, body: bytes });
    expect(put.status).toBe(200);

    // Another account may not name it: a 400 naming the field, and the upload stays the owner's.
    const foreign = await fetch(`${app.baseUrl}/v1/bot`, {
      ...json({ webhook: receiver.url, clips: [{ bot_uid: 'bot_ava', audio_upload: upload.upload_id, text: sentence.text }] }),
      headers: { ...other, 'Content-Type': 'application/json' },
    });
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as any).error.details[0].path).toBe('clips[0].audio_upload');

    const created = await api(
      '/v1/bot',
      json({ webhook: receiver.url, clips: [{ bot_uid: 'bot_ava', audio_upload: upload.upload_id, text: sentence.text }] }),
    );
    expect(created.status, await created.clone().text()).toBe(202);
    const { video_id } = (await created.json()) as { video_id: string };
    const { event, video } = await finishedVideo({ receiver }, api, video_id);
    expect(event.type).toBe('video.completed');
    const words = (await (await fetch(video.output.captions.words_url)).json()) as { text: string; start: number }[];
    expect(words.map((w) => w.text)).toEqual(transcriptWords(sentence.text).map((w) => w.text));

    // The reference: pocketsphinx hears the recording as the service prepares it (same code, same time base).
    const prepared = await prepareRecording(sentence.path, work, 180);
    const heard = await pocketsphinxWords(prepared.alignmentWavPath);
    const errors: number[] = [];
    let next = 0;
    for (const h of heard) {
      const k = words.findIndex((w, i) => i >= next && w.text.toLowerCase() === h.text);
      if (k < 0) continue;
      errors.push(Math.abs(words[k]!.start - h.startSeconds));
      next = k + 1;
    }
    expect(errors.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...errors), `errors (s): ${errors.map((e) => e.toFixed(2)).join(' ')}`).toBeLessThanOrEqual(0.2);
  }, 300_000);
});
