import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoAccountStore, DynamoBotCatalog, DynamoKeyStore } from '#commons/aws/dynamo-stores';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { generateApiKey, generateUsagePlanKey, generateWebhookSecret, hashApiKey, issueApiKey, newAccount } from '#domain/api-keys';
import { BUILT_IN_BOTS, botPreviewKey } from '#domain/bot';
import { seal, unseal, writePrivateFile } from './data-dir.ts';
import type { Log } from './log.ts';

/** Puts the bot catalog and each bot's preview image, through the functions' own adapters. Overwrites: idempotent. */
export async function seedBots(options: { doc: DynamoDBDocumentClient; s3: S3Client; botsTable: string; bucket: string; root: string; log: Log }) {
  const { root, log } = options;
  const catalog = new DynamoBotCatalog(options.doc, options.botsTable);
  const objects = new S3ObjectStore(options.s3, options.bucket);
  let previews = 0;
  for (const bot of BUILT_IN_BOTS) {
    await catalog.put(bot);
    const file = join(root, 'functions/render/bots', bot.look, 'preview.png');
    if (!existsSync(file)) {
      log.warn('bot preview image missing; not uploaded', { bot: bot.uid, file });
      continue;
    }
    await objects.putBytes(botPreviewKey(bot), await readFile(file), { contentType: 'image/png' });
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
 * `dev-tenant.json`: the ids in clear, the key and webhook secret sealed with the data dir's key (the keys table
 * holds only the key's hash; the webhook secret must stay usable to sign, so it is encrypted, not hashed).
 */
async function readSavedTenant(dataDir: string, file: string, log: Log): Promise<Partial<DevTenant>> {
  if (!existsSync(file)) return {};
  const saved = JSON.parse(await readFile(file, 'utf8')) as Partial<DevTenant> & { sealed?: string };
  const { sealed, ...ids } = saved;
  if (!sealed) return saved;
  try {
    return { ...ids, ...(JSON.parse(await unseal(dataDir, sealed)) as Partial<DevTenant>) };
  } catch {
    // The data dir's secret was replaced: the account stays, the key and webhook secret are issued again.
    log.warn('dev tenant key and webhook secret cannot be unsealed (local-secret replaced?); issuing new ones', { file });
    return { tenantId: ids.tenantId };
  }
}

async function saveTenant(dataDir: string, file: string, tenant: DevTenant) {
  const sealed = await seal(dataDir, JSON.stringify({ apiKey: tenant.apiKey, webhookSecret: tenant.webhookSecret }));
  await writePrivateFile(file, `${JSON.stringify({ tenantId: tenant.tenantId, keyId: tenant.keyId, sealed }, null, 2)}\n`);
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
  const { dataDir, log } = options;
  const accounts = new DynamoAccountStore(options.doc, options.accountsTable);
  const keys = new DynamoKeyStore(options.doc, options.keysTable);
  const stateFile = join(dataDir, 'dev-tenant.json');
  const saved = await readSavedTenant(dataDir, stateFile, log);
  const now = new Date();

  let tenantId = saved.tenantId;
  if (!tenantId || !(await accounts.get(tenantId))) {
    const account = tenantId ? { ...newAccount('Local developer', now), tenantId } : newAccount('Local developer', now);
    await accounts.put(account);
    tenantId = account.tenantId;
    log.info('dev account created', { tenantId });
  }

  const apiKey = options.apiKey || saved.apiKey || generateApiKey();
  const webhookSecret = options.webhookSecret || saved.webhookSecret || generateWebhookSecret();
  const existing = await keys.findByHash(hashApiKey(apiKey));
  let keyId: string;
  if (!existing) {
    const issued = issueApiKey({ tenantId, name: 'local dev key', now, apiKey, webhookSecret });
    await keys.put(issued.record);
    keyId = issued.record.keyId;
    log.info('dev api key created', { keyId, tenantId });
  } else {
    if (existing.tenantId !== tenantId) throw new Error(`DEV_API_KEY belongs to tenant ${existing.tenantId}, not the dev tenant ${tenantId}`);
    keyId = existing.keyId;
    if (existing.webhookSecrets[0]?.secret !== webhookSecret) {
      // Validated by issueApiKey's rules, then made the only signing secret.
      issueApiKey({ tenantId, name: 'check', now, apiKey, webhookSecret });
      await keys.setWebhookSecrets(keyId, [{ secret: webhookSecret, createdAt: now.toISOString() }]);
      log.info('dev api key given its webhook secret', { keyId });
    }
    if (existing.revokedAt) {
      await keys.reinstate(keyId);
      log.info('dev api key reinstated', { keyId });
    }
    // Issued before usage plans: the gateway requires the authorizer to name the key's usage-plan key.
    if (!existing.usageIdentifierKey) await keys.ensureUsageIdentifierKey(keyId, generateUsagePlanKey());
  }
  const tenant = { tenantId, keyId, apiKey, webhookSecret };
  await saveTenant(dataDir, stateFile, tenant);
  return tenant;
}
