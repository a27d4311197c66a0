import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { SqsQueue } from '#commons/aws/sqs-queue';

describe('SqsQueue', () => {
  it("sends every message in its account's message group (a fair queue on a standard SQS queue)", async () => {
    const sqs = mockClient(SQSClient);
    sqs.on(SendMessageCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const queue = new SqsQueue<{ kind: string; tenantId: string }>(new SQSClient({ region: 'us-east-1' }), 'https://sqs.test/q');
    await queue.send({ kind: 'assemble', tenantId: 'acct_a' }, { delaySeconds: 3 });
    await queue.sendBatch(Array.from({ length: 12 }, (_, i) => ({ kind: 'render-clip', tenantId: i < 6 ? 'acct_a' : 'acct_b' })));
    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input).toMatchObject({ MessageGroupId: 'acct_a', DelaySeconds: 3 });
    const entries = sqs.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries ?? []);
    expect(entries.map((e) => e.MessageGroupId)).toEqual([...Array(6).fill('acct_a'), ...Array(6).fill('acct_b')]);
    sqs.restore();
  });
});
