import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { MessageQueue } from '#domain/ports';

export class SqsQueue<T> implements MessageQueue<T> {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: T, options: { delaySeconds?: number } = {}): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
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
          Entries: chunk.map((message, i) => ({ Id: String(start + i), MessageBody: JSON.stringify(message) })),
        }),
      );
      if (result.Failed?.length) throw new Error(`could not enqueue ${result.Failed.length} message(s): ${result.Failed.map((f) => f.Code).join(', ')}`);
    }
  }
}
