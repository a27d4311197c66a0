import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { generateApiKey, generateWebhookSecret, hashApiKey } from '#domain/api-keys';
import { BUILT_IN_BOTS } from '#domain/bot';
import { gatewayFunctions } from '../../fixtures/local/functions.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

const clients = (app: TestRuntime) => {
  const { endpoints, credentials } = app.runtime;
  return {
    doc: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials, endpoint: endpoints.dynamodb })),
    s3: new S3Client({ region: 'us-east-1', credentials, endpoint: endpoints.s3, forcePathStyle: true }),
    sqs: new SQSClient({ region: 'us-east-1', credentials, endpoint: endpoints.sqs }),
  };
};
const scan = async (app: TestRuntime, table: string) =>
  (await clients(app).doc.send(new ScanCommand({ TableName: app.runtime.names.table(table as never) }))).Items ?? [];

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('local runtime: seeding and persistence across restarts', () => {
  it('seeds the catalog and the dev tenant once, keeps data across a restart, and re-enqueues unfinished work', async () => {
    // Prepare: first start with an explicit DEV_API_KEY / DEV_WEBHOOK_SECRET.
    const dataDir = await mkdtemp(join(tmpdir(), 'vidbot-restart-'));
    dirs.push(dataDir);
    const apiKey = generateApiKey();
    const webhookSecret = generateWebhookSecret();
    const first = await startTestRuntime({ functions: gatewayFunctions, dataDir, devApiKey: apiKey, devWebhookSecret: webhookSecret });
    expect(first.apiKey).toBe(apiKey);
    expect(first.webhookSecret).toBe(webhookSecret);
    const ready = await fetch(`${first.baseUrl}/health`);
    expect(ready.status).toBe(200);

    const bots = await scan(first, 'bots');
    expect(bots.sort((a, b) => String(a.uid).localeCompare(String(b.uid)))).toEqual([...BUILT_IN_BOTS].sort((a, b) => a.uid.localeCompare(b.uid)));
    const keys = await scan(first, 'keys');
    expect(keys).toEqual([
      expect.objectContaining({
        keyHash: hashApiKey(apiKey),
        tenantId: first.tenantId,
        webhookSecrets: [expect.objectContaining({ secret: webhookSecret })],
      }),
    ]);
    expect(await scan(first, 'accounts')).toEqual([expect.objectContaining({ tenantId: first.tenantId, createdAt: expect.any(String) })]);

    const { doc, s3 } = clients(first);
    const now = new Date().toISOString();
    await doc.send(
      new PutCommand({
        TableName: first.runtime.names.table('videos'),
        Item: {
          videoId: 'vid_persist',
          tenantId: first.tenantId,
          keyId: 'key_x',
          status: 'rendering',
          createVideo: true,
          webhookUrl: 'http://127.0.0.1:9/hook',
          clips: [],
          clipResults: { '0': { status: 'rendered' }, '1': { status: 'rendering' } },
          clipCount: 2,
          renderedCount: 1,
          createdAt: now,
          updatedAt: now,
          deadlineAt: Math.floor(Date.now() / 1000) + 3600,
          pendingShard: '0',
          delivery: { state: 'pending', attempts: [] },
        },
      }),
    );
    await s3.send(new PutObjectCommand({ Bucket: first.runtime.names.bucket, Key: 'videos/vid_persist/output.mp4', Body: 'not really a video' }));
    await first.stop();

    // Act: restart on the same data dir, without the variables.
    const second = await startTestRuntime({ functions: gatewayFunctions, dataDir });
    try {
      // Assess: same key and secret, nothing seeded twice, data still there, the lost render message is back.
      expect(second.apiKey).toBe(apiKey);
      expect(second.webhookSecret).toBe(webhookSecret);
      expect(second.tenantId).toBe(first.tenantId);
      expect(await scan(second, 'keys')).toHaveLength(1);
      expect(await scan(second, 'accounts')).toHaveLength(1);
      expect(await scan(second, 'bots')).toHaveLength(BUILT_IN_BOTS.length);
      expect((await scan(second, 'videos')).map((v) => v.videoId)).toEqual(['vid_persist']);
      const { s3: s3b, sqs } = clients(second);
      const object = await s3b.send(new GetObjectCommand({ Bucket: second.runtime.names.bucket, Key: 'videos/vid_persist/output.mp4' }));
      expect(await object.Body!.transformToString()).toBe('not really a video');
      const requeued = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: second.runtime.queues.render!.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      expect((requeued.Messages ?? []).map((m) => JSON.parse(m.Body!))).toEqual([
        { kind: 'render-clip', tenantId: first.tenantId, videoId: 'vid_persist', clipIndex: 1 },
      ]);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
