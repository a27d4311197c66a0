import { describe, expect, it } from 'vitest';
import { FairBuffer, messageGroupOf } from '#infra/local/poller.ts';

const message = (id: string, tenantId: string, group?: string) => ({
  MessageId: id,
  ReceiptHandle: `rh-${id}`,
  Body: JSON.stringify({ kind: 'render-clip', tenantId, videoId: 'vid_x', clipIndex: 0 }),
  ...(group ? { Attributes: { MessageGroupId: group } } : {}),
});

describe("the local poller's fair dispatch", () => {
  it('reads the account from the message group, else from the body', () => {
    expect(messageGroupOf(message('1', 'acct_a'))).toBe('acct_a');
    expect(messageGroupOf(message('2', 'acct_a', 'acct_g'))).toBe('acct_g');
    expect(messageGroupOf({ Body: 'not json' })).toBe('');
  });

  it("a quiet account's message goes next, ahead of a noisy account's backlog", () => {
    const buffer = new FairBuffer();
    for (let i = 0; i < 30; i++) buffer.add(message(`a${i}`, 'acct_a'));
    const first = buffer.take(1); // A starts its first clip
    buffer.add(message('b0', 'acct_b')); // B's one clip arrives behind 29 of A's
    const second = buffer.take(1);
    expect(first.map((b) => b.message.MessageId)).toEqual(['a0']);
    expect(second.map((b) => b.message.MessageId)).toEqual(['b0']);
    expect(buffer.take(1).map((b) => b.message.MessageId)).toEqual(['a1']);
  });

  it('alternates between accounts with equal work in flight, oldest message first within each', () => {
    const buffer = new FairBuffer();
    for (const id of ['a0', 'a1', 'a2']) buffer.add(message(id, 'acct_a'));
    for (const id of ['b0', 'b1']) buffer.add(message(id, 'acct_b'));
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const batch = buffer.take(1);
      order.push(batch[0]!.message.MessageId!);
      buffer.release(batch);
    }
    expect(order).toEqual(['a0', 'b0', 'a1', 'b1', 'a2']);
  });

  it('a redelivered copy replaces the one held (new receipt handle), and is not counted twice', () => {
    const buffer = new FairBuffer();
    buffer.add(message('x', 'acct_a'));
    buffer.add({ ...message('x', 'acct_a'), ReceiptHandle: 'rh-new' });
    expect(buffer.size).toBe(1);
    expect(buffer.take(10).map((b) => b.message.ReceiptHandle)).toEqual(['rh-new']);
  });
});
