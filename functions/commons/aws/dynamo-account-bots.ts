import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AccountBot, BotDelivery, BotFailure, StoredLook } from '#domain/account-bot';
import { SWEEPER_RESENDS_AFTER_SECONDS } from '#domain/lost-events';
import type { AccountBotStore, RecordRead } from '#domain/ports';
import type { DeliveryAttempt, DeliveryState } from '#domain/video';
import { isConditionFailure } from './conditions.ts';

/**
 * A settled bot whose event's first attempt is not recorded yet carries `eventPending` and `notifyBy` (epoch
 * seconds), which put it in the sparse `unsentEvents` index: the sweeper re-queues an event still there when due.
 */
const EVENT_PENDING = 'pending';

/** When the sweeper looks at a bot's event that settled at `at` (ISO time) and still has no attempt. */
const notifyByAfter = (at: string) => Math.floor(Date.parse(at) / 1000) + SWEEPER_RESENDS_AFTER_SECONDS;

/** The index attributes a record carries: a settled bot whose event has no attempt recorded is in the sweeper's index. */
function withIndex(bot: AccountBot): AccountBot & { eventPending?: string; notifyBy?: number } {
  const unsent = bot.status !== 'preparing' && bot.delivery && bot.delivery.attempts.length === 0;
  return unsent ? { ...bot, eventPending: EVENT_PENDING, notifyBy: notifyByAfter(bot.updatedAt) } : bot;
}

/** The record without the index attributes: what the domain knows of a bot. */
function strip(item: Record<string, unknown>): AccountBot {
  const { eventPending: _pending, notifyBy: _notifyBy, ...bot } = item;
  return bot as unknown as AccountBot;
}

/** A write's condition: the record is still the one read (a PUT changes the version; a settle, updatedAt). */
const unchangedSince = (read: RecordRead) => ({
  ConditionExpression: '#version = :version AND #updatedAt = :updatedAt',
  ExpressionAttributeNames: { '#version': 'version', '#updatedAt': 'updatedAt' },
  ExpressionAttributeValues: { ':version': read.version, ':updatedAt': read.updatedAt },
});

/** The accountBots table: partition key tenantId, sort key uid. Reads are strongly consistent (a PUT then a GET). */
export class DynamoAccountBotStore implements AccountBotStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string, uid: string): Promise<AccountBot | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { tenantId, uid }, ConsistentRead: true }));
    return Item ? strip(Item) : undefined;
  }

  async list(tenantId: string): Promise<AccountBot[]> {
    const bots: AccountBot[] = [];
    const pages = paginateQuery(
      { client: this.client },
      { TableName: this.tableName, KeyConditionExpression: 'tenantId = :t', ExpressionAttributeValues: { ':t': tenantId }, ConsistentRead: true },
    );
    for await (const page of pages) bots.push(...(page.Items ?? []).map(strip));
    return bots;
  }

  put(bot: AccountBot, replacing: RecordRead | undefined): Promise<boolean> {
    const condition = replacing === undefined ? { ConditionExpression: 'attribute_not_exists(uid)' } : unchangedSince(replacing);
    // A record put back (a PUT whose job could not be queued restores the one it replaced) keeps its place in the index.
    return this.conditional(() => this.client.send(new PutCommand({ TableName: this.tableName, Item: withIndex(bot), ...condition })));
  }

  delete(tenantId: string, uid: string, read: RecordRead): Promise<boolean> {
    return this.conditional(() =>
      this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { tenantId, uid }, ...unchangedSince(read) })),
    );
  }

  markReady(tenantId: string, uid: string, version: string, look: StoredLook, at: string, delivery: BotDelivery | undefined): Promise<boolean> {
    return this.settle(
      tenantId,
      uid,
      version,
      { set: '#status = :ready, #look = :look, updatedAt = :at', remove: ['#error'] },
      { ':ready': 'ready', ':look': look, ':at': at },
      delivery,
    );
  }

  markFailed(tenantId: string, uid: string, version: string, error: BotFailure, at: string, delivery: BotDelivery | undefined): Promise<boolean> {
    return this.settle(
      tenantId,
      uid,
      version,
      { set: '#status = :failed, #error = :error, updatedAt = :at', remove: ['#look'] },
      { ':failed': 'failed', ':error': error, ':at': at },
      delivery,
    );
  }

  async recordDeliveryAttempt(
    tenantId: string,
    uid: string,
    version: string,
    attempt: DeliveryAttempt,
    state: DeliveryState,
    chainId: string,
  ): Promise<void> {
    await this.conditional(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, uid },
          UpdateExpression:
            'SET #delivery.attempts = list_append(#delivery.attempts, :a), #delivery.#state = :s, #delivery.chainId = :c REMOVE eventPending, notifyBy',
          // Replaced or deleted meanwhile (or settled before events were recorded): nothing to record.
          ConditionExpression: '#version = :version AND attribute_exists(#delivery)',
          ExpressionAttributeNames: { '#delivery': 'delivery', '#state': 'state', '#version': 'version' },
          ExpressionAttributeValues: { ':a': [attempt], ':s': state, ':c': chainId, ':version': version },
        }),
      ),
    );
  }

  async listUnsentEvents(nowEpochSeconds: number, limit: number): Promise<AccountBot[]> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'unsentEvents',
        KeyConditionExpression: 'eventPending = :p AND notifyBy < :now',
        ExpressionAttributeValues: { ':p': EVENT_PENDING, ':now': nowEpochSeconds },
        Limit: limit,
      }),
    );
    return (Items ?? []).map(strip);
  }

  async postponeUnsentEvent(tenantId: string, uid: string, version: string, notifyBy: number): Promise<void> {
    await this.conditional(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, uid },
          UpdateExpression: 'SET notifyBy = :n',
          ConditionExpression: '#version = :version AND attribute_exists(eventPending)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':n': notifyBy, ':version': version },
        }),
      ),
    );
  }

  /**
   * preparing → settled, only while at `version`; with the event's delivery record (and listed among the unsent
   * events until its first attempt is recorded), or none without a webhook.
   */
  private settle(
    tenantId: string,
    uid: string,
    version: string,
    update: { set: string; remove: string[] },
    values: Record<string, unknown>,
    delivery: BotDelivery | undefined,
  ): Promise<boolean> {
    const set = delivery ? `${update.set}, #delivery = :delivery, eventPending = :pending, notifyBy = :notifyBy` : update.set;
    const remove = delivery ? update.remove : [...update.remove, '#delivery'];
    const notifyBy = notifyByAfter(values[':at'] as string);
    return this.conditional(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, uid },
          UpdateExpression: `SET ${set} REMOVE ${remove.join(', ')}`,
          ConditionExpression: '#version = :version AND #status = :preparing',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#version': 'version', '#look': 'look', '#delivery': 'delivery' },
          ExpressionAttributeValues: {
            ...values,
            ...(delivery ? { ':delivery': delivery, ':pending': EVENT_PENDING, ':notifyBy': notifyBy } : {}),
            ':version': version,
            ':preparing': 'preparing',
          },
        }),
      ),
    );
  }

  /** Runs a conditional write: false if its condition did not hold. */
  private async conditional(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
