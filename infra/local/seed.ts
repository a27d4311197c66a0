import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { generateApiKey, generateUsagePlanKey, generateWebhookSecret, hashApiKey, issueApiKey, newAccount } from '#domain/api-keys';
import { BUILT_IN_BOTS, botPreviewKey } from '#domain/bot';
import type { ApiKeyRecord } from '#domain/ports';
import type { Log } from './log.ts';

/** Puts the bot catalog (same shape as `Bot`) and each bot's preview image. Overwrites: idempotent. */
export async function seedBots(options: { doc: DynamoDBDocumentClient; s3: S3Client; botsTable: string; bucket: string; root: string; log: Log }) {
  const { doc, s3, botsTable, bucket, root, log } = options;
  let previews = 0;
  for (const bot of BUILT_IN_BOTS) {
    await doc.send(new PutCommand({ TableName: botsTable, Item: { ...bot } }));
    const file = join(root, 'functions/render/bots', bot.look, 'preview.png');
    if (!existsSync(file)) {
      log.warn('bot preview image missing; not uploaded', { bot: bot.uid, file });
      continue;
    }
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: botPreviewKey(bot), Body: await readFile(file), ContentType: 'image/png' }));
    previews++;
  }
  log.info('bot catalog seeded', { bots: BUILT_IN_BOTS.length, previews });
}

export interface DevTenant {
  tenantId: string;
  keyId: string;
  apiKey: string;
  webhookSecret: string;
}

/**
 * The dev tenant: an account and one API key. The key and webhook secret come from DEV_API_KEY /
 * DEV_WEBHOOK_SECRET, else from the previous start (persisted in the data dir), else are generated.
 */
export async function seedDevTenant(options: {
  doc: DynamoDBDocumentClient;
  accountsTable: string;
  keysTable: string;
  dataDir: string;
  apiKey?: string;
  webhookSecret?: string;
  log: Log;
}): Promise<DevTenant> {
  const { doc, accountsTable, keysTable, dataDir, log } = options;
  const stateFile = join(dataDir, 'dev-tenant.json');
  const saved: Partial<DevTenant> = existsSync(stateFile) ? JSON.parse(await readFile(stateFile, 'utf8')) : {};
  const now = new Date();

  let tenantId = saved.tenantId;
  if (!tenantId || !(await doc.send(new GetCommand({ TableName: accountsTable, Key: { tenantId } }))).Item) {
    const account = tenantId ? { ...newAccount('Local developer', now), tenantId } : newAccount('Local developer', now);
    await doc.send(new PutCommand({ TableName: accountsTable, Item: account, ConditionExpression: 'attribute_not_exists(tenantId)' }));
    tenantId = account.tenantId;
    log.info('dev account created', { tenantId });
  }

  const apiKey = options.apiKey || saved.apiKey || generateApiKey();
  const webhookSecret = options.webhookSecret || saved.webhookSecret || generateWebhookSecret();
  const existing = (await doc.send(new GetCommand({ TableName: keysTable, Key: { keyHash: hashApiKey(apiKey) } }))).Item as ApiKeyRecord | undefined;
  let keyId: string;
  if (!existing) {
    const issued = issueApiKey({ tenantId, name: 'local dev key', now, apiKey, webhookSecret });
    await doc.send(new PutCommand({ TableName: keysTable, Item: issued.record, ConditionExpression: 'attribute_not_exists(keyHash)' }));
    keyId = issued.record.keyId;
    log.info('dev api key created', { keyId, tenantId });
  } else {
    if (existing.tenantId !== tenantId) throw new Error(`DEV_API_KEY belongs to tenant ${existing.tenantId}, not the dev tenant ${tenantId}`);
    keyId = existing.keyId;
    const signing = existing.webhookSecrets[0]?.secret;
    if (signing !== webhookSecret || existing.revokedAt) {
      // Validated by issueApiKey's rules, then made the only signing secret.
      issueApiKey({ tenantId, name: 'check', now, apiKey, webhookSecret });
      await doc.send(
        new UpdateCommand({
          TableName: keysTable,
          Key: { keyHash: existing.keyHash },
          UpdateExpression: 'SET webhookSecrets = :s REMOVE revokedAt',
          ExpressionAttributeValues: { ':s': [{ secret: webhookSecret, createdAt: now.toISOString() }] },
        }),
      );
      log.info('dev api key updated (webhook secret or revocation)', { keyId });
    }
    if (!existing.usageIdentifierKey) {
      // Issued before usage plans: the gateway requires the authorizer to name the key's usage-plan key.
      await doc.send(
        new UpdateCommand({
          TableName: keysTable,
          Key: { keyHash: existing.keyHash },
          UpdateExpression: 'SET usageIdentifierKey = if_not_exists(usageIdentifierKey, :u)',
          ExpressionAttributeValues: { ':u': generateUsagePlanKey() },
        }),
      );
      log.info('dev api key given a usage-plan key', { keyId });
    }
  }
  const tenant = { tenantId, keyId, apiKey, webhookSecret };
  await writeFile(stateFile, `${JSON.stringify(tenant, null, 2)}\n`, { mode: 0o600 });
  return tenant;
}
