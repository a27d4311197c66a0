import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { InboxEvent } from '#domain/inbox';
import type { InboxStore, Page } from '#domain/ports';
import { isConditionFailure } from './conditions.ts';
import { tenantPage } from './cursor.ts';

/** The inbox table: one item per verified delivery, keyed by account and arrival; expires by TTL (expiresAt). */
export class DynamoInbox implements InboxStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async putNew(event: InboxEvent): Promise<boolean> {
    try {
      await this.client.send(new PutCommand({ TableName: this.tableName, Item: event, ConditionExpression: 'attribute_not_exists(receivedKey)' }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<InboxEvent>> {
    return tenantPage<InboxEvent>(this.client, { tableName: this.tableName, sortKey: 'receivedKey', newestFirst: true }, tenantId, options);
  }
}
