import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFunctions } from '../../fixtures/local/functions.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

let app: TestRuntime;
let sqs: SQSClient;
let out: string;

interface Delivery {
  id: string;
  receiveCount: number;
  messageId: string;
  threadId: number;
  record: Record<string, any>;
}
const deliveries = (id?: string): Delivery[] =>
  existsSync(out)
    ? readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Delivery)
        .filter((d) => !id || d.id === id)
    : [];

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const send = (body: object) => sqs.send(new SendMessageCommand({ QueueUrl: app.runtime.queues.render!.url, MessageBody: JSON.stringify(body) }));
const dlqBodies: string[] = [];
const drainDlq = async () => {
  const r = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: app.runtime.queues.render!.dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 600 }),
  );
  dlqBodies.push(...(r.Messages ?? []).map((m) => m.Body!));
  return dlqBodies;
};

beforeAll(async () => {
  const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp(join(process.env.TMPDIR ?? '/tmp', 'vidbot-poller-')));
  out = join(dir, 'deliveries.jsonl');
  // render: visibility 960 s declared → 1 s here; maxReceiveCount 3 from the wiring.
  app = await startTestRuntime({ functions: queueFunctions(out, 2), seed: false, visibilityScale: 0.001, scheduleSeconds: 1 });
  sqs = new SQSClient({ region: 'us-east-1', endpoint: app.runtime.endpoints.sqs, credentials: app.runtime.credentials });
}, 60_000);
afterAll(async () => {
  sqs?.destroy();
  await app?.stop();
});

describe('local queue pollers (SQS event source mapping)', () => {
  it('creates queues with the declared redrive policy and the scaled visibility timeout', () => {
    expect(app.runtime.queues.render).toMatchObject({ maxReceiveCount: 3, visibilityTimeoutSeconds: 1 });
    expect(app.runtime.queues.notify).toMatchObject({ maxReceiveCount: 12, visibilityTimeoutSeconds: 1 });
  });

  it('deletes successes, redelivers partial-batch failures, and moves a message to the DLQ after maxReceiveCount', async () => {
    // Prepare / Act
    await send({ id: 'ok' });
    await send({ id: 'once', failTimes: 1 });
    await send({ id: 'never', failTimes: 99 });
    // Assess
    const dead = await until('the failing message in the DLQ', async () => (await drainDlq()).length >= 1 && dlqBodies);
    expect(dead.map((b) => JSON.parse(b).id)).toEqual(['never']);
    expect(deliveries('ok').map((d) => d.receiveCount)).toEqual([1]);
    expect(deliveries('once').map((d) => d.receiveCount)).toEqual([1, 2]);
    expect(deliveries('never').map((d) => d.receiveCount)).toEqual([1, 2, 3]);

    const { record } = deliveries('ok')[0]!;
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: app.runtime.queues.render!.arn,
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: expect.stringMatching(/^\d+$/) },
      messageAttributes: {},
      md5OfBody: expect.any(String),
      receiptHandle: expect.any(String),
    });
  }, 30_000);

  it('fails the whole batch when the function throws', async () => {
    await send({ id: 'batch-throws', mode: 'throw' });
    await until('the thrown batch in the DLQ', async () => (await drainDlq()).length >= 2);
    expect(JSON.parse(dlqBodies[1]!).id).toBe('batch-throws');
    expect(deliveries('batch-throws').map((d) => d.receiveCount)).toEqual([1, 2, 3]);
  }, 30_000);

  it('counts a timeout or a crash as a failure: the environment is replaced and the message redelivered', async () => {
    await send({ id: 'hang', mode: 'hang' });
    const hang = await until('the hung message to be redelivered', () => deliveries('hang').length >= 2 && deliveries('hang'));
    expect(hang.map((d) => d.receiveCount)).toEqual([1, 2]);
    expect(hang[1]!.threadId).not.toBe(hang[0]!.threadId);

    await send({ id: 'crash', mode: 'crash' });
    const crash = await until('the crashed message to be redelivered', () => deliveries('crash').length >= 2 && deliveries('crash'));
    expect(crash.map((d) => d.receiveCount)).toEqual([1, 2]);
    expect(crash[1]!.threadId).not.toBe(crash[0]!.threadId);
    // Nothing of this reached the DLQ.
    expect((await drainDlq()).length).toBe(2);
  }, 30_000);

  it('runs schedule functions with an EventBridge scheduled event', async () => {
    const events = await until('two scheduled events', () => {
      const lines = existsSync(`${out}.schedule`) ? readFileSync(`${out}.schedule`, 'utf8').trim().split('\n') : [];
      return lines.length >= 2 && lines;
    });
    expect(JSON.parse(events[0]!)).toMatchObject({
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      detail: {},
      resources: [expect.stringContaining('rule/')],
    });
  });
});
