import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Page, TemplateStore } from '#domain/ports';
import type { TemplateRecord } from '#domain/templates';
import { tenantPage } from './cursor.ts';

/** Templates in DynamoDB, keyed by account and uid. */
export class DynamoTemplateStore implements TemplateStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string, uid: string): Promise<TemplateRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { tenantId, uid }, ConsistentRead: true }));
    return Item as TemplateRecord | undefined;
  }

  async put(template: TemplateRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: template }));
  }

  async delete(tenantId: string, uid: string): Promise<boolean> {
    const { Attributes } = await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { tenantId, uid }, ReturnValues: 'ALL_OLD' }));
    return Attributes !== undefined;
  }

  list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<TemplateRecord>> {
    return tenantPage<TemplateRecord>(this.client, { tableName: this.tableName, sortKey: 'uid' }, tenantId, options);
  }
}
