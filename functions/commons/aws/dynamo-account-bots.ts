import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, paginateQuery, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AccountBot, BotFailure, StoredLook } from '#domain/account-bots';
import type { AccountBotStore, RecordRead } from '#domain/ports';
import { isConditionFailure } from './conditions.ts';

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
    return Item as AccountBot | undefined;
  }

  async list(tenantId: string): Promise<AccountBot[]> {
    const bots: AccountBot[] = [];
    const pages = paginateQuery(
      { client: this.client },
      { TableName: this.tableName, KeyConditionExpression: 'tenantId = :t', ExpressionAttributeValues: { ':t': tenantId }, ConsistentRead: true },
    );
    for await (const page of pages) bots.push(...((page.Items ?? []) as AccountBot[]));
    return bots;
  }

  put(bot: AccountBot, replacing: RecordRead | undefined): Promise<boolean> {
    const condition = replacing === undefined ? { ConditionExpression: 'attribute_not_exists(uid)' } : unchangedSince(replacing);
    return this.conditional(() => this.client.send(new PutCommand({ TableName: this.tableName, Item: bot, ...condition })));
  }

  delete(tenantId: string, uid: string, read: RecordRead): Promise<boolean> {
    return this.conditional(() => this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { tenantId, uid }, ...unchangedSince(read) })));
  }

  markReady(tenantId: string, uid: string, version: string, look: StoredLook, at: string): Promise<boolean> {
    return this.settle(tenantId, uid, version, 'SET #status = :ready, #look = :look, updatedAt = :at REMOVE #error', { ':ready': 'ready', ':look': look, ':at': at });
  }

  markFailed(tenantId: string, uid: string, version: string, error: BotFailure, at: string): Promise<boolean> {
    return this.settle(tenantId, uid, version, 'SET #status = :failed, #error = :error, updatedAt = :at REMOVE #look', { ':failed': 'failed', ':error': error, ':at': at });
  }

  private settle(tenantId: string, uid: string, version: string, update: string, values: Record<string, unknown>): Promise<boolean> {
    return this.conditional(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, uid },
          UpdateExpression: update,
          ConditionExpression: '#version = :version AND #status = :preparing',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#version': 'version', '#look': 'look' },
          ExpressionAttributeValues: { ...values, ':version': version, ':preparing': 'preparing' },
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
