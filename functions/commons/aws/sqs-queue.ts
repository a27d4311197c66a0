import {
  ChangeMessageVisibilityCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { DeadLetterInbox, MessageQueue } from '#domain/ports';

/**
 * A work queue on SQS. Each message's group is its account (`MessageGroupId`): on a standard queue that makes it a
 * fair queue, where SQS delivers other accounts' messages first while one account holds a large share of the
 * messages in flight, so one account's backlog does not delay another's work.
 */
export class SqsQueue<T extends { tenantId: string }> implements MessageQueue<T> {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: T, options: { delaySeconds?: number } = {}): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        MessageGroupId: message.tenantId,
        DelaySeconds: options.delaySeconds ? Math.min(900, Math.max(0, Math.round(options.delaySeconds))) : undefined,
      }),
    );
  }

  async sendBatch(messages: T[]): Promise<void> {
    for (let start = 0; start < messages.length; start += 10) {
      const chunk = messages.slice(start, start + 10);
      const result = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: chunk.map((message, i) => ({ Id: String(start + i), MessageBody: JSON.stringify(message), MessageGroupId: message.tenantId })),
        }),
      );
      if (result.Failed?.length)
        throw new Error(`could not enqueue ${result.Failed.length} message(s): ${result.Failed.map((f) => f.Code).join(', ')}`);
    }
  }
}

export class SqsDeadLetterInbox implements DeadLetterInbox {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async peek(max: number, hideSeconds: number) {
    const { Messages } = await this.client.send(
      new ReceiveMessageCommand({
        QueueUrl: this.queueUrl,
        MaxNumberOfMessages: Math.min(10, max),
        VisibilityTimeout: hideSeconds,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['ApproximateReceiveCount'],
      }),
    );
    return (Messages ?? []).map((m) => ({ body: m.Body ?? '', receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 0) }));
  }
}

/** Hides a received message of the queue for `seconds`: its next receive comes then (a retry's backoff). */
export const hideReceivedMessage =
  (client: SQSClient, queueUrl: string) =>
  (record: { receiptHandle: string }, seconds: number): Promise<unknown> =>
    client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds }));
