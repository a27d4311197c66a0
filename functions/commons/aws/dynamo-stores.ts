import { type DynamoDBDocumentClient, GetCommand, PutCommand, paginateQuery, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Bot } from '#domain/bot';
import type { Account, AccountStore, ApiKeyRecord, BotCatalog, ClipLibrary, KeptClip, KeyStore, Page } from '#domain/ports';
import { isConditionFailure } from './conditions.ts';
import { tenantPage } from './cursor.ts';

/** The seeded bot catalog. It changes only at deploy, so a container keeps it for a minute. */
export class DynamoBotCatalog implements BotCatalog {
  private cache?: { at: number; bots: Bot[] };
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly ttlMs = 60_000,
  ) {}

  async list(): Promise<Bot[]> {
    if (this.cache && Date.now() - this.cache.at < this.ttlMs) return this.cache.bots;
    const bots: Bot[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: startKey }));
      bots.push(...((page.Items ?? []) as Bot[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    bots.sort((a, b) => a.uid.localeCompare(b.uid));
    this.cache = { at: Date.now(), bots };
    return bots;
  }

  async get(uid: string): Promise<Bot | undefined> {
    return (await this.list()).find((b) => b.uid === uid);
  }

  async put(bot: Bot): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: bot }));
    this.cache = undefined;
  }
}

export class DynamoKeyStore implements KeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { keyHash } }));
    return Item as ApiKeyRecord | undefined;
  }

  async findById(keyId: string): Promise<ApiKeyRecord | undefined> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'byKeyId',
        KeyConditionExpression: 'keyId = :k',
        ExpressionAttributeValues: { ':k': keyId },
      }),
    );
    // The index is eventually consistent and holds the whole item; read the item itself for the latest state.
    const hash = Items?.[0]?.keyHash as string | undefined;
    return hash ? this.findByHash(hash) : undefined;
  }

  async listByTenant(tenantId: string): Promise<ApiKeyRecord[]> {
    const keys: ApiKeyRecord[] = [];
    const pages = paginateQuery(
      { client: this.client },
      { TableName: this.tableName, IndexName: 'byTenant', KeyConditionExpression: 'tenantId = :t', ExpressionAttributeValues: { ':t': tenantId } },
    );
    for await (const page of pages) keys.push(...((page.Items ?? []) as ApiKeyRecord[]));
    return keys;
  }

  async put(key: ApiKeyRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: key, ConditionExpression: 'attribute_not_exists(keyHash)' }));
  }

  async revoke(keyId: string, at: string): Promise<boolean> {
    const key = await this.findById(keyId);
    if (!key) return false;
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { keyHash: key.keyHash },
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  }

  async reinstate(keyId: string): Promise<void> {
    const key = await this.findById(keyId);
    if (!key) throw new Error(`no key ${keyId}`);
    await this.client.send(new UpdateCommand({ TableName: this.tableName, Key: { keyHash: key.keyHash }, UpdateExpression: 'REMOVE revokedAt' }));
  }

  async setWebhookSecrets(keyId: string, secrets: ApiKeyRecord['webhookSecrets']): Promise<void> {
    const key = await this.findById(keyId);
    if (!key) throw new Error(`no key ${keyId}`);
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { keyHash: key.keyHash },
        UpdateExpression: 'SET webhookSecrets = :s',
        ExpressionAttributeValues: { ':s': secrets },
      }),
    );
  }

  async ensureUsageIdentifierKey(keyId: string, candidate: string): Promise<string> {
    const key = await this.findById(keyId);
    if (!key) throw new Error(`no key ${keyId}`);
    const { Attributes } = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { keyHash: key.keyHash },
        UpdateExpression: 'SET usageIdentifierKey = if_not_exists(usageIdentifierKey, :u)',
        ExpressionAttributeValues: { ':u': candidate },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes!.usageIdentifierKey as string;
  }
}

export class DynamoAccountStore implements AccountStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string): Promise<Account | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { tenantId } }));
    return Item as Account | undefined;
  }

  async put(account: Account): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: account }));
  }

  async setMaxVideosInProgress(tenantId: string, limit: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { tenantId },
          UpdateExpression: 'SET maxVideosInProgress = :limit',
          ConditionExpression: 'attribute_exists(tenantId)',
          ExpressionAttributeValues: { ':limit': limit },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

export class DynamoClipLibrary implements ClipLibrary {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(clip: KeptClip): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: clip }));
  }

  async get(tenantId: string, clipUid: string): Promise<KeptClip | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { tenantId, clipUid } }));
    return Item as KeptClip | undefined;
  }

  list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<KeptClip>> {
    return tenantPage<KeptClip>(this.client, { tableName: this.tableName, sortKey: 'clipUid' }, tenantId, options);
  }
}
