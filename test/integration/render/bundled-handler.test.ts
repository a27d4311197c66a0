/**
 * The render image holds what it needs: the real render handler, bundled into the image folder exactly as
 * `npm run bundle:render` makes it (for this machine's architecture), runs in a separate Node process from that
 * folder, with no node_modules in reach and no FFMPEG_PATH, on a real render job taken off the render queue of
 * a running local service; the rest of the service then completes the video.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_REGION } from '#infra/local/emulators.ts';
import { bundleRender } from '#infra/scripts/bundle-render.ts';
import { environmentFor, type FunctionDecl, functions } from '#infra/wiring.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { eventually } from '../../support/media.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';

const exec = promisify(execFile);
const out = mkdtempSync(join(tmpdir(), 'vidbot-render-image-'));
let app: TestRuntime;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  await bundleRender({ arch: process.arch === 'arm64' ? 'arm64' : 'x64', entry: resolve('functions/render/handler.ts'), out });
  // Every function but render: its messages wait in the queue for the bundled handler.
  const withoutRender = Object.fromEntries(Object.entries(functions).filter(([name]) => name !== 'render')) as Record<string, FunctionDecl>;
  app = await startTestRuntime({ functions: withoutRender });
  receiver = await startWebhookReceiver(app.webhookSecret);
}, 180_000);
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
  rmSync(out, { recursive: true, force: true });
});

it('the bundled render handler renders a real job from its own folder, and the video completes', async () => {
  const create = await fetch(`${app.baseUrl}/v1/bot`, {
    method: 'POST',
    headers: { ...app.authHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook: receiver.url, clips: [{ bot_uid: 'bot_maya', text: 'Rendered by the image.', transitions: 'fade_in' }] }),
  });
  expect(create.status).toBe(202);
  const { video_id } = (await create.json()) as { video_id: string };

  const sqs = new SQSClient({ endpoint: app.runtime.endpoints.sqs, region: LOCAL_REGION, credentials: app.runtime.credentials });
  const queue = app.runtime.queues.render!;
  const { Messages } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 1, WaitTimeSeconds: 5, MessageSystemAttributeNames: ['All'] }),
  );
  const message = Messages![0]!;
  expect(JSON.parse(message.Body!)).toEqual({ kind: 'render-clip', tenantId: app.tenantId, videoId: video_id, clipIndex: 0 });
  const event = {
    Records: [
      {
        messageId: message.MessageId,
        receiptHandle: message.ReceiptHandle,
        body: message.Body,
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(Date.now()),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: message.MD5OfBody,
        eventSource: 'aws:sqs',
        eventSourceARN: queue.arn,
        awsRegion: LOCAL_REGION,
      },
    ],
  };

  // Exactly the environment the stack gives the render function, pointed at the emulators; nothing else.
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: out,
    ...environmentFor(functions.render, app.runtime.names, 'local'),
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: app.runtime.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: app.runtime.credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: app.runtime.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: app.runtime.endpoints.s3,
    AWS_ENDPOINT_URL_SQS: app.runtime.endpoints.sqs,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  };
  const script =
    `const { handler } = await import('./index.mjs');` +
    `const context = { awsRequestId: 'bundle-test', functionName: 'render', getRemainingTimeInMillis: () => 600000 };` +
    `const result = await handler(${JSON.stringify(event)}, context);` +
    `console.log('RESULT ' + JSON.stringify(result));`;
  const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: out, env, timeout: 120_000 });
  const result = JSON.parse(
    stdout
      .split('\n')
      .find((l) => l.startsWith('RESULT '))!
      .slice('RESULT '.length),
  );
  expect(result).toEqual({ batchItemFailures: [] });

  // The service's own assemble and notifier functions take it from there.
  const video = await eventually(
    async () => {
      const v = (await (await fetch(`${app.baseUrl}/v1/video/${video_id}`, { headers: app.authHeaders })).json()) as any;
      return v.status === 'completed' ? v : undefined;
    },
    60_000,
    'the video to complete',
  );
  expect(video.clips[0]).toMatchObject({ status: 'rendered', cached: false });
  expect(video.clips[0].duration_seconds).toBeGreaterThan(1);
  await receiver.waitForDelivered(1, 30_000);
}, 240_000);
