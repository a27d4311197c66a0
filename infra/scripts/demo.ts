/**
 * `npm run demo`: the main job, for a new user. Starts the local runtime, sends the interface's sample request
 * (multipart, single-quoted clips: two clips, two bots, two positions, a background video, fade_in fade_out),
 * shows progress while it renders, receives the signed webhook on a local receiver, saves the video and
 * prints its path.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createLog, functionOutputToFile } from '../local/log.ts';
import { startLocalRuntime } from '../local/runtime.ts';
import { makeSampleBackground } from './make-sample-background.ts';
import { startFileServer } from './support/file-server.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = process.env.VIDBOT_DATA_DIR ?? join(root, '.local', 'demo');
const outDir = join(root, '.local', 'videos');

async function main() {
  const started = Date.now();
  const step = (text: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${text}`);

  let background = join(root, '.local', 'samples', 'demo-background.mp4');
  if (!existsSync(background)) {
    step('making a sample background video (720p, 12 s, with music; once) ...');
    background = await makeSampleBackground(background, { seconds: 12 });
  }
  const files = await startFileServer({ '/background.mp4': background });

  step('starting the local runtime (DynamoDB, S3 and SQS emulators, the functions, the gateway) ...');
  // The functions' logs and metrics go to a file; `npm run demo -- --verbose` prints them too.
  const functionOutput = functionOutputToFile(join(dataDir, 'logs', 'functions.log'), process.argv.includes('--verbose'));
  const runtime = await startLocalRuntime({ port: 0, dataDir, logLevel: 'warn', functionLogLevel: 'WARN', log: createLog('warn'), functionOutput });
  const tenant = runtime.devTenant!;
  const receiver = await startWebhookReceiver(tenant.webhookSecret);
  try {
    step(`service at ${runtime.url}, webhook receiver at ${receiver.url}`);
    // Exactly the interface's sample form: curl -F fields, clips with single-quoted strings.
    const clips =
      `[{"bot_uid": 'bot_ava', "text": 'Hi! I am Ava. Welcome to vidbot, where bots like me say whatever you write.', ` +
      `"bot_position": 'bottom-right', "remove_bot_background": true, "background": '${files.base}/background.mp4', ` +
      `"background_volume": 0.3, "transitions": 'fade_in fade_out', "reusable_clip": false, "clip_name": 'Intro'}, ` +
      `{"bot_uid": 'bot_leo', "text": 'And I am Leo. Give us your text, and you get a finished video back.', ` +
      `"bot_position": 'top-left', "remove_bot_background": false, "background": '${files.base}/background.mp4', ` +
      `"background_volume": 0.3, "transitions": 'fade_in fade_out', "reusable_clip": true, "clip_name": 'Outro'}]`;
    const form = new FormData();
    form.append('webhook', receiver.url);
    form.append('create_video', 'true');
    form.append('clips', clips);
    step('POST /v1/bot (multipart, as curl -F sends it) ...');
    const response = await fetch(`${runtime.url}/v1/bot`, { method: 'POST', headers: { Authorization: `Bearer ${tenant.apiKey}` }, body: form });
    const created = (await response.json()) as { video_id: string; url: string };
    if (response.status !== 202) throw new Error(`create answered ${response.status}: ${JSON.stringify(created)}`);
    step(`202 Accepted: ${created.video_id}`);

    let last = '';
    for (;;) {
      const video = (await (await fetch(created.url, { headers: { Authorization: `Bearer ${tenant.apiKey}` } })).json()) as any;
      const line = `${video.status} — ${video.clips.map((c: any) => `${c.clip_name}: ${c.status}${c.duration_seconds ? ` (${c.duration_seconds.toFixed(1)} s)` : ''}`).join(', ')}`;
      if (line !== last) step((last = line));
      if (video.status === 'failed') throw new Error(`the video failed: ${JSON.stringify(video.error)}`);
      if (video.status === 'completed' && receiver.delivered().length) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const delivery = receiver.delivered()[0]!;
    step(
      `webhook received: ${delivery.event?.type}, signature ${delivery.verified ? 'verified' : 'NOT verified'} (webhook-id ${delivery.headers['webhook-id']})`,
    );
    const video = await fetch(delivery.event!.data.video_url);
    await mkdir(outDir, { recursive: true });
    const path = join(outDir, `${created.video_id}.mp4`);
    await writeFile(path, Buffer.from(await video.arrayBuffer()));
    step(`saved ${delivery.event!.data.duration_seconds.toFixed(1)} s of video`);
    console.log(`\nYour video: ${path}\n`);
  } finally {
    await receiver.stop();
    await files.stop();
    await runtime.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
