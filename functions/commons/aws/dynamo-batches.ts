import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BatchRecord } from '#domain/batches';
import type { BatchStore, Page } from '#domain/ports';
import type { DeliveryAttempt, DeliveryState } from '#domain/video';
import { isConditionFailure } from './conditions.ts';
import { tenantPage } from './cursor.ts';

/**
 * The sparse `unsettled` index's one partition: a batch carries `pendingShard` until its batch.completed event's
 * first attempt is recorded, ordered by its last look (`tickAt`), for the sweeper.
 */
const PENDING = 'batch';
/** The fields a look writes (BatchStore.save): everything but the request's own and `cancelRequested`. */
const LOOK_FIELDS = [
  'status',
  'nextRow',
  'inFlight',
  'counts',
  'rowErrors',
  'cancelledFrom',
  'version',
  'tickAt',
  'updatedAt',
  'completedAt',
  'delivery',
] as const;

/** The sort-key prefix of an account's running-batch slots; batch ids start with `bat_`, so no listing sees one. */
const SLOT_PREFIX = '#slot-';
const RUNNING = new Set<string>(['queued', 'running']);
/** Rounds of reading the slots and trying the free ones before a create racing others is refused. */
const CLAIM_ROUNDS = 4;

const strip = (item: Record<string, unknown>) => {
  const { pendingShard: _p, ...batch } = item;
  return batch as unknown as BatchRecord;
};

/** Batches in DynamoDB, keyed by account and batch id. */
export class DynamoBatchStore implements BatchStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(batch: BatchRecord): Promise<void> {
    await this.client.send(
      new PutCommand({ TableName: this.tableName, Item: { ...batch, pendingShard: PENDING }, ConditionExpression: 'attribute_not_exists(batchId)' }),
    );
  }

  async get(tenantId: string, batchId: string): Promise<BatchRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { tenantId, batchId }, ConsistentRead: true }));
    return Item ? strip(Item) : undefined;
  }

  /**
   * The account's slots are items of its own partition (`#slot-0` … `#slot-{n-1}`, outside every listing), each
   * naming the batch that holds it. A slot is taken by a conditional write: empty, or still naming a holder that
   * has settled or was deleted (a settled batch never runs again, so the slot needs no release). Two creates
   * racing for one slot cannot both win it.
   */
  async claimRunningSlot(tenantId: string, batchId: string, slots: number): Promise<boolean> {
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const held = await this.slotHolders(tenantId);
      const running = await this.runningHolders(tenantId, held);
      // A test account's slots shrink while its live account's batches run: one it took beyond them still counts.
      if (running.size >= slots) return false;
      const free = Array.from({ length: slots }, (_, i) => `${SLOT_PREFIX}${i}`).filter((slot) => !running.has(slot));
      for (const slot of free) if (await this.takeSlot(tenantId, slot, batchId, held.get(slot))) return true;
    }
    return false;
  }

  async countRunning(tenantId: string): Promise<number> {
    return (await this.runningHolders(tenantId, await this.slotHolders(tenantId))).size;
  }

  /** The slots whose holder is still queued or running. */
  private async runningHolders(tenantId: string, held: Map<string, string>): Promise<Set<string>> {
    const running = new Set<string>();
    for (const [slot, holder] of held) if (RUNNING.has((await this.get(tenantId, holder))?.status ?? '')) running.add(slot);
    return running;
  }

  private async slotHolders(tenantId: string): Promise<Map<string, string>> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'tenantId = :t AND begins_with(batchId, :slot)',
        ExpressionAttributeValues: { ':t': tenantId, ':slot': SLOT_PREFIX },
        ConsistentRead: true,
      }),
    );
    return new Map((Items ?? []).map((item) => [item.batchId as string, item.holder as string]));
  }

  private async takeSlot(tenantId: string, slot: string, batchId: string, previous: string | undefined): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { tenantId, batchId: slot, holder: batchId },
          ConditionExpression: previous === undefined ? 'attribute_not_exists(batchId)' : 'holder = :previous',
          ...(previous !== undefined && { ExpressionAttributeValues: { ':previous': previous } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async delete(tenantId: string, batchId: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { tenantId, batchId } }));
  }

  async list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<BatchRecord>> {
    const page = await tenantPage<Record<string, unknown>>(
      this.client,
      { tableName: this.tableName, sortKey: 'batchId', newestFirst: true, sortKeyPrefix: 'bat_' },
      tenantId,
      options,
    );
    return { ...page, items: page.items.map(strip) };
  }

  async save(batch: BatchRecord, expectedVersion: number): Promise<boolean> {
    const set: string[] = [];
    const remove: string[] = [];
    const names: Record<string, string> = { '#version': 'version' };
    const values: Record<string, unknown> = { ':expected': expectedVersion };
    for (const [i, field] of LOOK_FIELDS.entries()) {
      names[`#f${i}`] = field;
      if (batch[field] === undefined) remove.push(`#f${i}`);
      else {
        set.push(`#f${i} = :f${i}`);
        values[`:f${i}`] = batch[field];
      }
    }
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId: batch.tenantId, batchId: batch.batchId },
          UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: '#version = :expected',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async requestCancel(tenantId: string, batchId: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, batchId },
          UpdateExpression: 'SET cancelRequested = :yes',
          ConditionExpression: 'attribute_exists(batchId) AND #status IN (:queued, :running)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':yes': true, ':queued': 'queued', ':running': 'running' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async recordDeliveryAttempt(tenantId: string, batchId: string, attempt: DeliveryAttempt, state: DeliveryState, chainId: string): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, batchId },
          UpdateExpression:
            'SET delivery.attempts = list_append(delivery.attempts, :a), delivery.#state = :s, delivery.chainId = :c REMOVE pendingShard',
          ConditionExpression: 'attribute_exists(delivery)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':a': [attempt], ':s': state, ':c': chainId },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  async listStalled(tickBefore: number, limit: number): Promise<BatchRecord[]> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'unsettled',
        KeyConditionExpression: 'pendingShard = :p AND tickAt < :before',
        ExpressionAttributeValues: { ':p': PENDING, ':before': tickBefore },
        Limit: limit,
      }),
    );
    return (Items ?? []).map(strip);
  }

  async postpone(tenantId: string, batchId: string, version: number, tickAt: number): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, batchId },
          UpdateExpression: 'SET tickAt = :t',
          ConditionExpression: '#version = :v',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':t': tickAt, ':v': version },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
}
