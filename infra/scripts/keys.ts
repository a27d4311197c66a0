/**
 * `npm run keys -- <command>`: issue, list, revoke API keys and rotate their webhook secrets, against the
 * local runtime (default: the running `npm start`, found through .local/runtime.json) or a deployed stack
 * (`--stack VidbotStack [--region eu-west-1]`, which reads the stack's outputs).
 *
 *   create --name acme                 issue a key for a new account (the key is printed once, never stored)
 *   create --name ci --account acct_x  another key for an existing account
 *   create --name ci --account acct_x --test
 *                                      a test key: its videos are 360p, marked TEST, at most 60 s, and live in the
 *                                      account's test account, apart from its live videos, limits and usage
 *   list                               keys with their ids, accounts and state (never the keys)
 *   revoke --key-id key_x              revoke a key (401 from then on; cached decisions expire within 5 minutes)
 *   rotate-secret --key-id key_x [--grace-hours 24]
 *                                      a new webhook signing secret; the old one keeps signing during the grace
 *   limit --account acct_x --videos-in-progress 50
 *                                      the account's limit of videos in progress at once (default 20)
 *   sync-usage-plan                    give every key a usage-plan key (keys issued before usage plans; run once
 *                                      after deploying them): on a stack, API Gateway answers 403 to keys without one
 *
 * On a stack, `create` and `sync-usage-plan` also create each key's API Gateway API key (named after the key id,
 * valued with its usage-plan key, never the bearer key) in the stack's usage plan, which throttles it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, GetApiKeysCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoAccountStore, DynamoKeyStore } from '#commons/aws/dynamo-stores';
import { generateUsagePlanKey, issueApiKey, newAccount, rotateWebhookSecret } from '#domain/api-keys';
import { parseVideosInProgressLimit } from '#domain/fair-use';
import type { Account, ApiKeyRecord } from '#domain/ports';
import { emulatorCredentials } from '../local/data-dir.ts';

export interface KeyTarget {
  client: DynamoDBDocumentClient;
  keysTable: string;
  accountsTable: string;
  where: string;
  /** A deployed stack's usage plan; absent locally, where the gateway throttles any usage-plan key it is given. */
  usagePlan?: UsagePlanKeys;
}

/** Puts a key's usage-plan key into the usage plan that throttles it. */
export interface UsagePlanKeys {
  register(key: { keyId: string; tenantId: string; usageIdentifierKey: string }): Promise<void>;
}

/** The stack's usage plan in API Gateway. Idempotent: a key registered before is found by its name, the key id. */
export function apiGatewayUsagePlan(apigateway: APIGatewayClient, usagePlanId: string): UsagePlanKeys {
  return {
    async register(key) {
      const { items } = await apigateway.send(new GetApiKeysCommand({ nameQuery: key.keyId, limit: 10 }));
      let apiKeyId = items?.find((k) => k.name === key.keyId)?.id;
      if (!apiKeyId) {
        const created = await apigateway.send(
          new CreateApiKeyCommand({
            name: key.keyId,
            value: key.usageIdentifierKey,
            enabled: true,
            description: `vidbot key ${key.keyId} of account ${key.tenantId}`,
          }),
        );
        apiKeyId = created.id!;
      }
      try {
        await apigateway.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: apiKeyId, keyType: 'API_KEY' }));
      } catch (error) {
        if ((error as Error).name !== 'ConflictException') throw error; // already in the plan
      }
    },
  };
}

/** What the local runtime publishes in its data dir while it runs (see infra/local/runtime.ts). */
interface RuntimeInfo {
  endpoints: { dynamodb: string };
  tables: Record<string, string>;
  url: string;
}

export async function localTarget(dataDir: string): Promise<KeyTarget> {
  const file = join(dataDir, 'runtime.json');
  if (!existsSync(file)) throw new Error(`no local runtime is running (no ${file}); start it with npm start, or pass --stack for a deployed stack`);
  const info = JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
  const raw = new DynamoDBClient({ endpoint: info.endpoints.dynamodb, region: 'us-east-1', credentials: await emulatorCredentials(dataDir) });
  return {
    client: DynamoDBDocumentClient.from(raw),
    keysTable: info.tables.keys!,
    accountsTable: info.tables.accounts!,
    where: `local runtime at ${info.url}`,
  };
}

export async function stackTarget(stackName: string, region?: string): Promise<KeyTarget> {
  const cfn = new CloudFormationClient({ region });
  const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
  const outputs = Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  const keysTable = outputs.KeysTableName;
  const accountsTable = outputs.AccountsTableName;
  const usagePlanId = outputs.UsagePlanId;
  if (!keysTable || !accountsTable || !usagePlanId)
    throw new Error(`stack ${stackName} has no KeysTableName/AccountsTableName/UsagePlanId outputs; is it deployed (and up to date)?`);
  return {
    client: DynamoDBDocumentClient.from(new DynamoDBClient({ region })),
    keysTable,
    accountsTable,
    where: `stack ${stackName} (${outputs.ApiUrl ?? ''})`,
    usagePlan: apiGatewayUsagePlan(new APIGatewayClient({ region }), usagePlanId),
  };
}

/**
 * Issues a key; for a new account unless `accountId` names an existing one. A test key (`test`) belongs to the
 * live account's test account, made with the first test key (domain/test-mode.ts).
 */
export async function createKey(target: KeyTarget, options: { name: string; accountId?: string; test?: boolean; now?: Date }) {
  const now = options.now ?? new Date();
  const accounts = new DynamoAccountStore(target.client, target.accountsTable);
  let account = options.accountId ? await accounts.get(options.accountId) : undefined;
  if (options.accountId && !account) throw new Error(`no account ${options.accountId}`);
  if (account?.test)
    throw new Error(`${account.tenantId} is a test account: name its live account ${account.liveTenantId} (with --test for another test key)`);
  if (!account) {
    account = newAccount(options.name, now);
    await accounts.put(account);
  }
  if (options.test) account = await testAccountOf(accounts, account, now);
  const issued = issueApiKey({ tenantId: account.tenantId, name: options.name, now, test: options.test });
  // Into the usage plan first: should that fail, no key exists that API Gateway would refuse.
  await target.usagePlan?.register({ ...issued.record, usageIdentifierKey: issued.record.usageIdentifierKey! });
  await new DynamoKeyStore(target.client, target.keysTable).put(issued.record);
  return { account, ...issued };
}

/** The live account's test account, made (and linked both ways) if it has none yet. */
async function testAccountOf(accounts: DynamoAccountStore, live: Account, now: Date): Promise<Account> {
  const existing = live.testTenantId ? await accounts.get(live.testTenantId) : undefined;
  if (existing) return existing;
  const testAccount: Account = { ...newAccount(`${live.name} (test)`, now), test: true, liveTenantId: live.tenantId };
  await accounts.put(testAccount);
  await accounts.put({ ...live, testTenantId: testAccount.tenantId });
  return testAccount;
}

export async function listKeys(target: KeyTarget): Promise<ApiKeyRecord[]> {
  const items: ApiKeyRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await target.client.send(new ScanCommand({ TableName: target.keysTable, ExclusiveStartKey: startKey }));
    items.push(...((page.Items ?? []) as ApiKeyRecord[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function revokeKey(target: KeyTarget, keyId: string, now = new Date()) {
  return new DynamoKeyStore(target.client, target.keysTable).revoke(keyId, now.toISOString());
}

export async function rotateSecret(target: KeyTarget, keyId: string, graceHours: number, now = new Date()) {
  const keys = new DynamoKeyStore(target.client, target.keysTable);
  const key = await keys.findById(keyId);
  if (!key) throw new Error(`no key ${keyId}`);
  const rotated = rotateWebhookSecret(key, now, graceHours * 3600);
  await keys.setWebhookSecrets(keyId, rotated.webhookSecrets);
  return rotated;
}

/** Gives every key that lacks one a usage-plan key and, on a stack, puts it in the usage plan. Safe to re-run. */
export async function syncUsagePlan(target: KeyTarget): Promise<{ keys: number; given: number }> {
  const store = new DynamoKeyStore(target.client, target.keysTable);
  let given = 0;
  const active = (await listKeys(target)).filter((key) => !key.revokedAt);
  for (const key of active) {
    const usageIdentifierKey = await store.ensureUsageIdentifierKey(key.keyId, key.usageIdentifierKey ?? generateUsagePlanKey());
    if (!key.usageIdentifierKey) given++;
    await target.usagePlan?.register({ keyId: key.keyId, tenantId: key.tenantId, usageIdentifierKey });
  }
  return { keys: active.length, given };
}

/** Sets how many videos the account may have in progress at once; takes effect on its next create. */
export async function setVideosInProgressLimit(target: KeyTarget, accountId: string, limit: number | string) {
  const value = parseVideosInProgressLimit(limit);
  const accounts = new DynamoAccountStore(target.client, target.accountsTable);
  // A test account shares its live account's limit (domain/fair-use.ts): a limit of its own would never be read.
  const account = await accounts.get(accountId);
  if (account?.test)
    throw new Error(`${accountId} is a test account: it shares the limit of its live account; set that one's (--account ${account.liveTenantId})`);
  if (!(await accounts.setMaxVideosInProgress(accountId, value))) throw new Error(`no account ${accountId}`);
  return value;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      'key-id': { type: 'string' },
      'grace-hours': { type: 'string', default: '24' },
      'videos-in-progress': { type: 'string' },
      test: { type: 'boolean', default: false },
      stack: { type: 'string' },
      region: { type: 'string' },
      'data-dir': { type: 'string', default: process.env.VIDBOT_DATA_DIR ?? '.local' },
    },
  });
  const command = positionals[0];
  const target = values.stack ? await stackTarget(values.stack, values.region) : await localTarget(values['data-dir']!);
  switch (command) {
    case 'create': {
      if (!values.name) throw new Error('create needs --name');
      const { account, apiKey, webhookSecret, record } = await createKey(target, { name: values.name, accountId: values.account, test: values.test });
      console.log(`Issued${record.test ? ' a TEST key' : ''} on ${target.where}:
  account         ${account.tenantId} (${account.name})${account.liveTenantId ? `, the test account of ${account.liveTenantId}` : ''}
  key id          ${record.keyId}
  API key         ${apiKey}
  webhook secret  ${webhookSecret}
Keep both now: the key is stored only as a hash and is never shown again.`);
      return;
    }
    case 'list':
      for (const key of await listKeys(target))
        console.log(
          `${key.keyId}  ${key.tenantId}  ${key.name.padEnd(16)}  ${key.test ? 'test' : 'live'}  created ${key.createdAt}${key.revokedAt ? `  REVOKED ${key.revokedAt}` : ''}`,
        );
      return;
    case 'revoke': {
      if (!values['key-id']) throw new Error('revoke needs --key-id');
      if (!(await revokeKey(target, values['key-id']))) throw new Error(`no key ${values['key-id']}`);
      console.log(`Revoked ${values['key-id']}. Requests with it get 401 (gateways may honour a cached decision for up to 5 minutes).`);
      return;
    }
    case 'rotate-secret': {
      if (!values['key-id']) throw new Error('rotate-secret needs --key-id');
      const hours = Number(values['grace-hours']);
      const { newSecret } = await rotateSecret(target, values['key-id'], hours);
      console.log(`New webhook secret for ${values['key-id']}: ${newSecret}\nThe previous secret also signs events for ${hours} h.`);
      return;
    }
    case 'sync-usage-plan': {
      const { keys, given } = await syncUsagePlan(target);
      console.log(`${keys} active keys are in the usage plan on ${target.where} (${given} given a usage-plan key now).`);
      return;
    }
    case 'limit': {
      if (!values.account || values['videos-in-progress'] === undefined) throw new Error('limit needs --account and --videos-in-progress');
      const limit = await setVideosInProgressLimit(target, values.account, values['videos-in-progress']);
      console.log(`Account ${values.account} may now have ${limit} videos in progress at once (on ${target.where}).`);
      return;
    }
    default:
      throw new Error(
        'usage: npm run keys -- create --name NAME [--account ACCT] [--test] | list | revoke --key-id ID | rotate-secret --key-id ID [--grace-hours H] | limit --account ACCT --videos-in-progress N | sync-usage-plan  [--stack NAME [--region R]]',
      );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: Error) => {
    console.error(`keys: ${error.message}`);
    process.exit(1);
  });
}
