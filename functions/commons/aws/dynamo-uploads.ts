import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UploadStore } from '#domain/ports';
import type { Upload } from '#domain/uploads';
import { isConditionFailure } from './conditions.ts';

/** Uploads in DynamoDB, keyed by account and id: a get with another account's tenant finds nothing. */
export class DynamoUploadStore implements UploadStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(upload: Upload): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: upload, ConditionExpression: 'attribute_not_exists(uploadId)' }));
  }

  async get(tenantId: string, uploadId: string): Promise<Upload | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { tenantId, uploadId }, ConsistentRead: true }));
    return Item as Upload | undefined;
  }

  async markUsed(tenantId: string, uploadId: string, usedBy: string, countsUntil?: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, uploadId },
          UpdateExpression: countsUntil === undefined ? 'SET usedBy = :usedBy' : 'SET usedBy = :usedBy, countsUntil = :countsUntil',
          ConditionExpression: 'attribute_exists(uploadId) AND attribute_not_exists(usedBy)',
          ExpressionAttributeValues: { ':usedBy': usedBy, ...(countsUntil === undefined ? {} : { ':countsUntil': countsUntil }) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async release(tenantId: string, uploadId: string, usedBy: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId, uploadId },
          UpdateExpression: 'REMOVE usedBy',
          ConditionExpression: 'usedBy = :usedBy',
          ExpressionAttributeValues: { ':usedBy': usedBy },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async countPending(tenantId: string, nowSeconds: number): Promise<number> {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'tenantId = :tenantId',
          FilterExpression: 'expiresAt > :now AND (attribute_not_exists(usedBy) OR countsUntil > :now)',
          ExpressionAttributeValues: { ':tenantId': tenantId, ':now': nowSeconds },
          Select: 'COUNT',
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return count;
  }
}
