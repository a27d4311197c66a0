import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Lexicon } from '#domain/lexicon';
import type { LexiconStore } from '#domain/ports';

/** Lexicons in DynamoDB, one item per account (at most 500 entries of at most 150 characters: far below an item's 400 KB). */
export class DynamoLexiconStore implements LexiconStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string): Promise<Lexicon | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { tenantId }, ConsistentRead: true }));
    return Item as Lexicon | undefined;
  }

  async put(lexicon: Lexicon): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: lexicon }));
  }

  async delete(tenantId: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { tenantId } }));
  }
}
