/**
 * Metrics as the functions write them: one EMF document per line of a function's output, which CloudWatch Logs
 * turns into metrics of the namespace Vidbot on AWS. A video that completes (its first webhook attempt refused,
 * the second delivered) and a video that fails, through the local runtime, and the documents they leave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dimensionNames, METRICS_NAMESPACE, metricNames, SERVICE_NAME } from '#commons/metric-names';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';
import { eventually } from '../support/media.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

interface Emitted {
  function: string;
  document: Record<string, unknown> & {
    _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  };
}

const output: { function: string; line: string }[] = [];
let app: TestRuntime;
let files: Awaited<ReturnType<typeof startFileServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let started: number;

/** Every EMF document the functions wrote so far. */
function documents(): Emitted[] {
  return output.flatMap(({ function: fn, line }) => {
    if (!line.includes('"CloudWatchMetrics"')) return [];
    try {
      return [{ function: fn, document: JSON.parse(line) }];
    } catch {
      return [];
    }
  });
}

/** The documents carrying `metric`, with its values (a document may hold several). */
function emitted(metric: string) {
  return documents()
    .filter((d) => d.document._aws.CloudWatchMetrics.some((m) => m.Metrics.some((x) => x.Name === metric)))
    .map((d) => {
      const raw = d.document[metric];
      return { ...d, values: (Array.isArray(raw) ? raw : [raw]) as number[], definition: d.document._aws.CloudWatchMetrics[0]! };
    });
}

const waitFor = (metric: string, what: (e: ReturnType<typeof emitted>[number]) => boolean = () => true) =>
  eventually(async () => (emitted(metric).some(what) ? emitted(metric).filter(what) : undefined), 60_000, `an EMF document with ${metric}`);

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${app.baseUrl}${path}`, {
    ...init,
    headers: { ...app.authHeaders, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

async function createVideo(body: Record<string, unknown>): Promise<string> {
  const response = await api('/v1/bot', { method: 'POST', body: JSON.stringify({ webhook: receiver.url, ...body }) });
  expect(response.status).toBe(202);
  return ((await response.json()) as { video_id: string }).video_id;
}

beforeAll(async () => {
  started = Date.now();
  files = await startFileServer({});
  app = await startTestRuntime({
    functionOutput: (line, from) => output.push({ function: from.function, line }),
    // The retry after the refused first attempt comes within a second.
    functionEnvironment: { VIDBOT_DELIVERY_DELAY_SCALE: '0.01' },
  });
  receiver = await startWebhookReceiver(app.webhookSecret, (n) => (n === 1 ? 503 : 204));
}, 180_000);
afterAll(async () => {
  await receiver?.stop();
  await files?.stop();
  await app?.stop();
});

describe('a completed video', () => {
  let videoId: string;
  let clipSeconds: number;

  beforeAll(async () => {
    videoId = await createVideo({ create_video: false, clips: [{ bot_uid: 'bot_otto', text: 'Metrics, please.' }] });
    await receiver.waitForDelivered(1, 120_000);
    const video = (await (await api(`/v1/video/${videoId}`)).json()) as { status: string; clips: { duration_seconds: number }[] };
    expect(video.status).toBe('completed');
    clipSeconds = video.clips[0]!.duration_seconds;
  }, 180_000);

  it('writes EMF documents in the Vidbot namespace with the service dimension, one JSON object per line', async () => {
    await waitFor(metricNames.videosCompleted);
    const all = documents();
    expect(all.length).toBeGreaterThan(0);
    for (const { document } of all) {
      expect(document._aws.CloudWatchMetrics[0]!.Namespace).toBe(METRICS_NAMESPACE);
      expect(document.service).toBe(SERVICE_NAME);
      for (const set of document._aws.CloudWatchMetrics[0]!.Dimensions) expect(set[0]).toBe(dimensionNames.service);
      expect(document._aws.Timestamp).toBeGreaterThanOrEqual(started);
      expect(document._aws.Timestamp).toBeLessThanOrEqual(Date.now());
    }
  });

  it('counts the video created by the create function', async () => {
    const [created] = await waitFor(metricNames.videosCreated);
    expect(created).toMatchObject({ function: 'createVideo', values: [1], definition: { Dimensions: [[dimensionNames.service]] } });
    expect(created!.definition.Metrics).toContainEqual({ Name: metricNames.videosCreated, Unit: 'Count' });
  });

  it('times the clip render and its speed against the clip length', async () => {
    const [seconds] = await waitFor(metricNames.clipRenderSeconds);
    const [speed] = await waitFor(metricNames.renderSpeed);
    expect(seconds!.function).toBe('render');
    expect(seconds!.definition.Metrics).toContainEqual({ Name: metricNames.clipRenderSeconds, Unit: 'Seconds' });
    const renderSeconds = seconds!.values[0]!;
    expect(renderSeconds).toBeGreaterThan(0);
    expect(renderSeconds).toBeLessThan(120);
    // Seconds of clip per second of render: the two values describe the same clip.
    expect(speed!.values[0]! * renderSeconds).toBeCloseTo(clipSeconds, 1);
  });

  it('counts the video completed by the assemble function', async () => {
    const [completed] = await waitFor(metricNames.videosCompleted);
    expect(completed).toMatchObject({ function: 'assemble', values: [1] });
  });

  it('counts each webhook attempt, the refused one as a failure', async () => {
    const attempts = await eventually(
      async () => {
        const all = emitted(metricNames.webhookAttempts).flatMap((e) => e.values);
        return all.length >= 2 ? all : undefined;
      },
      60_000,
      'two webhook attempts',
    );
    expect(attempts.every((v) => v === 1)).toBe(true);
    const failures = emitted(metricNames.webhookFailures);
    expect(failures.every((e) => e.function === 'notifier')).toBe(true);
    // The first attempt was answered 503, the second 204.
    expect(failures.flatMap((e) => e.values).slice(0, 2)).toEqual([1, 0]);
  });

  it('records how long the messages waited, per queue, from their SentTimestamp', async () => {
    for (const queue of ['render', 'assemble', 'notify']) {
      const ages = await waitFor(metricNames.queueMessageAge, (e) => e.document[dimensionNames.queue] === queue);
      expect(ages[0]!.definition.Dimensions).toEqual([[dimensionNames.service, dimensionNames.queue]]);
      for (const age of ages.flatMap((e) => e.values)) {
        expect(age).toBeGreaterThanOrEqual(0);
        expect(age).toBeLessThan(120);
      }
    }
  });
});

describe('a failed video', () => {
  it('counts the failure by its error code, and in the total over all codes', async () => {
    const videoId = await createVideo({
      create_video: true,
      clips: [{ bot_uid: 'bot_ava', text: 'This will not render.', background: `${files.base}/missing.mp4` }],
    });
    const video = await eventually(
      async () => {
        const body = (await (await api(`/v1/video/${videoId}`)).json()) as { status: string; error?: { code: string } };
        return body.status === 'failed' ? body : undefined;
      },
      120_000,
      'the video to fail',
    );
    expect(video.error?.code).toBe('background_unavailable');
    const [failed] = await waitFor(metricNames.videosFailed);
    expect(failed).toMatchObject({
      function: 'fetcher',
      values: [1],
      definition: { Dimensions: [[dimensionNames.service, dimensionNames.errorCode], [dimensionNames.service]] },
    });
    expect(failed!.document[dimensionNames.errorCode]).toBe('background_unavailable');
    expect(emitted(metricNames.videosCreated).flatMap((e) => e.values)).toEqual([1, 1]);
  }, 150_000);
});
