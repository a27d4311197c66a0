/**
 * `npm run bench:batch [-- --rows 50]`: a personalised batch through the local runtime (the real API, batch worker,
 * render queue, render function, assembly and notifier): a template of a personalised clip ("Hi {{first_name}}…",
 * about 4 s) and a shared outro (about 4 s, the same for every row), 720p video, sent as a CSV of `--rows` rows.
 * The measure runs from the POST to the signed batch.completed event, after a warm-up video so every function is
 * warm. It prints rows per minute, the CPU seconds per row (this process and its ffmpeg children: the whole local
 * service), how many times the outro was rendered (must be 1: the other rows find it in the render cache), and
 * what a 1000-row batch would take on AWS from the per-row render time measured here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchRoom } from '#domain/batches';
import { limits } from '#domain/limits';
import { createLog } from '../../local/log.ts';
import { startLocalRuntime } from '../../local/runtime.ts';
import { functions } from '../../wiring.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { argument, cpuSeconds, loadAverage } from './support.ts';

const ROWS = Number(argument('rows') ?? 50);
const NAMES = ['Ada', 'Grace', 'Alan', 'Katherine', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Linus', 'Margaret'];
const TEMPLATE = {
  name: 'Bench outreach',
  create_video: true,
  clips: [
    { bot_uid: 'bot_ava', text: 'Hi {{first_name}}, thanks for joining us at {{company}} this week.', bot_position: 'bottom-right' },
    { bot_uid: 'bot_ava', text: 'See you soon, and have a wonderful day.', bot_position: 'bottom-right', clip_name: 'Outro' },
  ],
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

type Api = (path: string, init?: RequestInit) => Promise<{ status: number; body: any }>;
type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'vidbot-bench-batch-'));
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir: join(work, 'data'),
    logLevel: 'warn',
    functionLogLevel: 'ERROR',
    log: createLog('warn'),
    requestRate: false,
  });
  const receiver = await startWebhookReceiver(runtime.devTenant!.webhookSecret);
  const auth = { Authorization: `Bearer ${runtime.devTenant!.apiKey}` };
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${runtime.url}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });
    return { status: response.status, body: (await response.json()) as any };
  };
  try {
    await warmUp(api, receiver);
    const { batchId, event, wall, cpu, load } = await sendBatch(api, receiver);
    const videos = await rowVideos(api, batchId);
    const status = event.data.status;
    const outroRenders = report(videos, { status, wall, cpu, load });
    if (outroRenders !== 1) throw new Error(`the outro was rendered ${outroRenders} times, not once`);
    if (status !== 'completed') throw new Error(`the batch ended ${status}`);
  } finally {
    await receiver.stop();
    await runtime.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** One video of other words, so every function is warm (the outro must not be in the cache before the batch). */
async function warmUp(api: Api, receiver: Receiver): Promise<void> {
  const warm = await api('/v1/bot', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook: receiver.url, clips: [{ bot_uid: 'bot_ava', text: 'Warming up.' }] }),
  });
  await receiver.waitForDelivered(1, 120_000);
  if (warm.status !== 202) throw new Error(`warm-up answered ${warm.status}`);
}

/** The template saved, the CSV of ROWS rows sent as a batch; measured from the POST to the signed batch.completed. */
async function sendBatch(api: Api, receiver: Receiver) {
  const saved = await api('/v1/templates/bench', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(TEMPLATE),
  });
  if (saved.status !== 200) throw new Error(`template answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  const csv = `first_name,company\n${Array.from({ length: ROWS }, (_, i) => `${NAMES[i % NAMES.length]},Company ${i + 1}`).join('\n')}\n`;
  const form = new FormData();
  form.set('webhook', receiver.url);
  form.set('rows', new Blob([csv], { type: 'text/csv' }), 'rows.csv');

  const load = loadAverage();
  const cpu0 = cpuSeconds();
  const started = Date.now();
  const sent = await api('/v1/templates/bench/batches', { method: 'POST', body: form });
  if (sent.status !== 202) throw new Error(`batch answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  const batchId = sent.body.batch_id as string;
  let event: any;
  while (!event) {
    event = receiver.delivered().find((r) => r.event?.type === 'batch.completed' && r.event.data.batch_id === batchId)?.event;
    if (Date.now() - started > 60 * 60_000) throw new Error('no batch.completed within an hour');
    await new Promise((r) => setTimeout(r, 200));
  }
  const wall = (Date.now() - started) / 1000;
  const cpu = cpuSeconds() - cpu0;
  return { batchId, event, wall, cpu, load };
}

/** Each row's video: its personalised clip's render time, whether its outro was rendered or found. */
async function rowVideos(api: Api, batchId: string): Promise<any[]> {
  const videos: any[] = [];
  for (let cursor: string | null = '0'; cursor !== null; ) {
    const page = await api(`/v1/batches/${batchId}?limit=100&cursor=${cursor}`);
    for (const row of page.body.videos) videos.push((await api(`/v1/video/${row.video_id}`)).body);
    cursor = page.body.next_cursor;
  }
  return videos;
}

/** The table of the run, and what a 1000-row batch would take on AWS; the number of outro renders. */
function report(videos: any[], run: { status: string; wall: number; cpu: number; load: string }): number {
  const { status, wall, cpu, load } = run;
  const outroRenders = videos.filter((v) => !v.clips[1].cached).length;
  const personalRenderS = median(videos.map((v) => v.clips[0].render_seconds));
  const rowLatencyS = median(videos.map((v) => (Date.parse(v.completed_at) - Date.parse(v.created_at)) / 1000));
  const clipSeconds = median(videos.map((v) => v.clips[0].duration_seconds));

  // AWS: the rows in flight are the batch's share of the account's limit, and at most the render function's
  // concurrency; each row's time there is about its personalised clip's render (the outro is cached) plus the
  // hops and the assembly, about what one row takes here when the machine is not shared (the render's median).
  const renderConcurrency = (functions.render as { maxConcurrency: number }).maxConcurrency;
  const estimate = (limit: number) => {
    const inFlight = Math.min(batchRoom(limit), renderConcurrency, limits.maxBatchRowsInFlight);
    const perRow = personalRenderS + 1 + limits.batchTickSeconds / 2;
    return { limit, inFlight, minutes: ((1000 / inFlight) * perRow) / 60 };
  };

  console.log(`\nbench:batch — ${ROWS} rows, ${new Date().toISOString()}, load before ${load}`);
  console.log(
    '| Rows | Status | Wall (POST → batch.completed) | Rows per minute | CPU s per row | Outro renders | Personalised clip (length / render, median) | Row create → completed (median) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${ROWS} | ${status} | ${wall.toFixed(1)} s | ${((ROWS / wall) * 60).toFixed(1)} | ${(cpu / ROWS).toFixed(2)} | ${outroRenders} | ${clipSeconds.toFixed(1)} s / ${personalRenderS.toFixed(2)} s | ${rowLatencyS.toFixed(1)} s |`,
  );
  console.log(
    `\nA 1000-row batch on AWS (render function: ${renderConcurrency} at once; a row ≈ its clip's render + 1 s of hops and assembly + half a look):`,
  );
  for (const e of [estimate(limits.defaultMaxVideosInProgress), estimate(100)])
    console.log(`- account limit ${e.limit}: ${e.inFlight} rows in flight → about ${e.minutes.toFixed(1)} minutes`);
  return outroRenders;
}

await main();
