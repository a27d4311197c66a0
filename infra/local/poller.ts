import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { LOCAL_REGION } from './emulators.ts';
import type { FunctionHost } from './function-host.ts';
import type { Log } from './log.ts';

export interface PollerOptions {
  sqs: SQSClient;
  queueName: string;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  host: FunctionHost;
  /** Concurrent batches in flight (Lambda's maximum concurrency of the event source mapping). */
  concurrency: number;
  /** Long-poll wait; short in tests so that stop() is quick. */
  waitTimeSeconds: number;
  /** The queue's visibility timeout, given back to a message that waited in the buffer when its batch starts. */
  visibilityTimeoutSeconds?: number;
  log: Log;
}

/**
 * Lambda's SQS record shape.
 * @internal Exported for its tests.
 */
export function toSqsRecord(message: Message, queueArn: string) {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'AIDAIENQZJOLO23YVJ4VO',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(attributes.MessageGroupId ? { MessageGroupId: attributes.MessageGroupId } : {}),
      ...(attributes.MessageDeduplicationId ? { MessageDeduplicationId: attributes.MessageDeduplicationId } : {}),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          dataType: value.DataType!,
          ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
          ...(value.BinaryValue !== undefined ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') } : {}),
          stringListValues: value.StringListValues ?? [],
          binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: LOCAL_REGION,
  };
}

/**
 * Which messages of a batch succeeded, by Lambda's rules for ReportBatchItemFailures: a thrown error or a
 * malformed response fails the whole batch; otherwise every message not listed in batchItemFailures succeeded.
 * @internal Exported for its tests.
 */
export function successfulMessages(messageIds: string[], outcome: { error: true } | { error: false; result: unknown }): string[] {
  if (outcome.error) return [];
  const result = outcome.result as { batchItemFailures?: unknown } | null | undefined;
  if (result === null || result === undefined || typeof result !== 'object' || result.batchItemFailures === undefined) return messageIds;
  if (!Array.isArray(result.batchItemFailures)) return [];
  const failed = new Set<string>();
  for (const item of result.batchItemFailures as { itemIdentifier?: unknown }[]) {
    const id = item?.itemIdentifier;
    // An empty, missing or unknown identifier makes Lambda treat the whole batch as failed.
    if (typeof id !== 'string' || !id || !messageIds.includes(id)) return [];
    failed.add(id);
  }
  return messageIds.filter((id) => !failed.has(id));
}

/** A message received and waiting for an execution environment, by the account it is for. */
interface Buffered {
  message: Message;
  group: string;
}

/** Messages held by a poller at most: receiving pauses above it (what is not received waits in the queue). */
const MAX_BUFFERED = 1000;

/**
 * The account a message is for: its SQS message group (fair queues on AWS), else the `tenantId` of its body;
 * one shared group when it names none.
 * @internal Exported for its tests.
 */
export function messageGroupOf(message: Pick<Message, 'Attributes' | 'Body'>): string {
  const group = message.Attributes?.MessageGroupId;
  if (group) return group;
  try {
    const body = JSON.parse(message.Body ?? '') as { tenantId?: unknown };
    return typeof body?.tenantId === 'string' ? body.tenantId : '';
  } catch {
    return '';
  }
}

/**
 * Fair dispatch among accounts, the local counterpart of SQS fair queues: the next free execution environment
 * takes the oldest message of the account with the fewest messages in flight (the one served longest ago
 * breaking ties), so one account's backlog of clips or hanging webhooks does not hold up another's small job.
 * @internal Exported for its tests.
 */
export class FairBuffer {
  private readonly byGroup = new Map<string, Buffered[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly servedAt = new Map<string, number>();
  private served = 0;
  size = 0;

  /** Adds a received message; a redelivered copy (same MessageId) replaces the one held, with its new receipt handle. */
  add(message: Message): void {
    const group = messageGroupOf(message);
    const queue = this.byGroup.get(group) ?? [];
    const held = queue.findIndex((b) => b.message.MessageId === message.MessageId);
    if (held >= 0) queue[held] = { message, group };
    else {
      queue.push({ message, group });
      this.size++;
    }
    this.byGroup.set(group, queue);
  }

  /** Up to `max` messages of the account whose turn it is, now counted in flight; empty when none wait. */
  take(max: number): Buffered[] {
    let turn: string | undefined;
    for (const group of this.byGroup.keys()) {
      if (turn === undefined || this.rank(group) < this.rank(turn)) turn = group;
    }
    if (turn === undefined) return [];
    const queue = this.byGroup.get(turn)!;
    const taken = queue.splice(0, max);
    if (queue.length === 0) this.byGroup.delete(turn);
    this.size -= taken.length;
    this.inFlight.set(turn, (this.inFlight.get(turn) ?? 0) + taken.length);
    this.servedAt.set(turn, ++this.served);
    return taken;
  }

  /** The messages of a batch are done (deleted, or back to the queue): no longer in flight. */
  release(batch: Buffered[]): void {
    for (const { group } of batch) {
      const left = (this.inFlight.get(group) ?? 1) - 1;
      if (left > 0) this.inFlight.set(group, left);
      else this.inFlight.delete(group);
    }
  }

  /** Fewest in flight first, then the one served longest ago. */
  private rank(group: string): number {
    return (this.inFlight.get(group) ?? 0) * 1e9 + (this.servedAt.get(group) ?? 0);
  }
}

/**
 * An SQS event source mapping: one loop long-polls the queue into a FairBuffer, and `concurrency` loops hand its
 * batches to the function. Failed messages are not deleted; they reappear after their visibility timeout, and the
 * queue's redrive policy moves them to the DLQ. A message that waited in the buffer gets its full visibility
 * timeout again when its batch starts, as if just received.
 */
export class QueuePoller {
  private running = false;
  private readonly abort = new AbortController();
  private loops: Promise<void>[] = [];
  private readonly buffer = new FairBuffer();
  private waiting: (() => void)[] = [];

  constructor(private readonly options: PollerOptions) {}

  start() {
    this.running = true;
    this.loops = [this.receive(), ...Array.from({ length: this.options.concurrency }, () => this.dispatch())];
  }

  async stop() {
    this.running = false;
    this.abort.abort();
    this.wakeAll();
    await Promise.all(this.loops);
  }

  private wakeAll() {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async receive() {
    const { sqs, queueUrl, waitTimeSeconds, log } = this.options;
    while (this.running) {
      if (this.buffer.size >= MAX_BUFFERED) {
        await this.sleep(200);
        continue;
      }
      try {
        const received = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: this.buffer.size > 0 ? 0 : waitTimeSeconds,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: this.abort.signal },
        );
        for (const message of received.Messages ?? []) this.buffer.add(message);
        if (received.Messages?.length) this.wakeAll();
        // Nothing new while some wait: do not spin on an empty queue.
        else if (this.buffer.size > 0) await this.sleep(100);
      } catch (error) {
        if (!this.running) return;
        log.warn('receive failed; retrying', { queue: this.options.queueName, error: (error as Error).message });
        await this.sleep(1000);
      }
    }
  }

  private async dispatch() {
    while (this.running) {
      const batch = this.buffer.take(this.options.batchSize);
      if (batch.length === 0) {
        await this.sleep(1000);
        continue;
      }
      try {
        const ready = await this.renew(batch.map((b) => b.message));
        if (ready.length) await this.deliver(ready);
      } finally {
        this.buffer.release(batch);
      }
    }
  }

  /** Gives each message its full visibility timeout again; one whose handle expired is dropped (a newer copy comes). */
  private async renew(messages: Message[]): Promise<Message[]> {
    const { sqs, queueUrl, visibilityTimeoutSeconds } = this.options;
    if (!visibilityTimeoutSeconds) return messages;
    const result = await sqs
      .send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: queueUrl,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: visibilityTimeoutSeconds })),
        }),
      )
      .catch(() => undefined);
    if (!result) return messages;
    const failed = new Set((result.Failed ?? []).map((f) => f.Id));
    return messages.filter((_, i) => !failed.has(String(i)));
  }

  private async deliver(messages: Message[]) {
    const { sqs, queueUrl, queueArn, host, log, queueName } = this.options;
    const event = { Records: messages.map((m) => toSqsRecord(m, queueArn)) };
    const ids = event.Records.map((r) => r.messageId);
    let outcome: { error: true } | { error: false; result: unknown };
    try {
      outcome = { error: false, result: await host.invoke(event) };
    } catch (error) {
      log.warn('queue batch failed; its messages return after the visibility timeout, or the backoff the function set', {
        queue: queueName,
        function: host.name,
        messageIds: ids,
        error: (error as Error).message,
      });
      outcome = { error: true };
    }
    const succeeded = new Set(successfulMessages(ids, outcome));
    const toDelete = event.Records.filter((r) => succeeded.has(r.messageId));
    if (!outcome.error && toDelete.length < ids.length) {
      log.info('partial batch failure', { queue: queueName, function: host.name, failed: ids.filter((id) => !succeeded.has(id)) });
    }
    if (!toDelete.length) return;
    try {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: toDelete.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
        }),
      );
    } catch (error) {
      log.warn('delete failed; messages will be redelivered', { queue: queueName, error: (error as Error).message });
    }
  }
}
