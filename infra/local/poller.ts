import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
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
  log: Log;
}

/** Lambda's SQS record shape. */
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

/**
 * An SQS event source mapping: long-polls the queue and hands batches to the function. Failed messages are not
 * deleted; they reappear after their visibility timeout, and the queue's redrive policy moves them to the DLQ.
 */
export class QueuePoller {
  private running = false;
  private readonly abort = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(private readonly options: PollerOptions) {}

  start() {
    this.running = true;
    this.loops = Array.from({ length: this.options.concurrency }, () => this.loop());
  }

  async stop() {
    this.running = false;
    this.abort.abort();
    await Promise.all(this.loops);
  }

  private async loop() {
    const { sqs, queueUrl, batchSize, waitTimeSeconds, log } = this.options;
    while (this.running) {
      let messages: Message[];
      try {
        const received = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: waitTimeSeconds,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: this.abort.signal },
        );
        messages = received.Messages ?? [];
      } catch (error) {
        if (!this.running) return;
        log.warn('receive failed; retrying', { queue: this.options.queueName, error: (error as Error).message });
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (messages.length) await this.deliver(messages);
    }
  }

  private async deliver(messages: Message[]) {
    const { sqs, queueUrl, queueArn, host, log, queueName } = this.options;
    const event = { Records: messages.map((m) => toSqsRecord(m, queueArn)) };
    const ids = event.Records.map((r) => r.messageId);
    let outcome: { error: true } | { error: false; result: unknown };
    try {
      outcome = { error: false, result: await host.invoke(event) };
    } catch (error) {
      log.warn('queue batch failed; its messages return after the visibility timeout', {
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
