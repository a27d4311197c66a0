/**
 * The keys CLI on a deployed stack: every key it issues gets an API Gateway API key in the stack's usage plan,
 * valued with the key's usage-plan key (what the authorizer returns as usageIdentifierKey), never the bearer
 * key; sync-usage-plan does the same for keys issued before usage plans. DynamoDB is dynalite, API Gateway a mock.
 */
import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, GetApiKeysCommand } from '@aws-sdk/client-api-gateway';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { DynamoKeyStore } from '#commons/aws/dynamo-stores';
import { hashApiKey } from '#domain/api-keys';
import { apiGatewayUsagePlan, createKey, type KeyTarget, syncUsagePlan } from '#infra/scripts/keys.ts';
import { startDynamo } from '../../support/dynamo.ts';

const apigateway = mockClient(APIGatewayClient);
let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let target: KeyTarget;

beforeAll(async () => {
  dynamo = await startDynamo();
  target = {
    client: dynamo.client,
    keysTable: 'keys',
    accountsTable: 'accounts',
    where: 'test',
    usagePlan: apiGatewayUsagePlan(new APIGatewayClient({ region: 'eu-west-1' }), 'plan123'),
  };
});
afterAll(() => dynamo.stop());
beforeEach(() => {
  apigateway.reset();
  apigateway.on(GetApiKeysCommand).resolves({ items: [] });
  apigateway.on(CreateApiKeyCommand).callsFake((input: { name: string }) => ({ id: `agk-${input.name}` }));
  apigateway.on(CreateUsagePlanKeyCommand).resolves({});
});

it('create puts the new key into the usage plan, valued with its usage-plan key, never the bearer key', async () => {
  const { apiKey, record } = await createKey(target, { name: 'acme' });
  expect(record.usageIdentifierKey).toMatch(/^vbu[0-9a-f]{40}$/);
  const [created] = apigateway.commandCalls(CreateApiKeyCommand).map((c) => c.args[0].input);
  expect(created).toMatchObject({ name: record.keyId, value: record.usageIdentifierKey, enabled: true });
  expect(JSON.stringify(created)).not.toContain(apiKey);
  expect(apigateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
    usagePlanId: 'plan123',
    keyId: `agk-${record.keyId}`,
    keyType: 'API_KEY',
  });
  // The authorizer returns what is stored.
  expect((await new DynamoKeyStore(dynamo.client, 'keys').findByHash(hashApiKey(apiKey)))?.usageIdentifierKey).toBe(record.usageIdentifierKey);
});

it('stores no key when the usage plan cannot take it (API Gateway would refuse that key)', async () => {
  apigateway.on(CreateUsagePlanKeyCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
  const before = (await dynamo.client.send(new ScanCommand({ TableName: 'keys' }))).Count;
  await expect(createKey(target, { name: 'nope' })).rejects.toThrow('denied');
  const after = (await dynamo.client.send(new ScanCommand({ TableName: 'keys' }))).Count;
  expect(after).toBe(before);
});

it('sync-usage-plan gives an old key a usage-plan key and registers it once; re-running finds it', async () => {
  // Prepare: a key issued before usage plans.
  const old = {
    keyHash: hashApiKey('vb_old'),
    keyId: 'key_old',
    tenantId: 'acct_old',
    name: 'old',
    createdAt: '2026-01-01T00:00:00Z',
    webhookSecrets: [],
  };
  await dynamo.client.send(new PutCommand({ TableName: 'keys', Item: old }));
  // Act
  const first = await syncUsagePlan(target);
  // Assess
  const stored = await new DynamoKeyStore(dynamo.client, 'keys').findById('key_old');
  expect(stored?.usageIdentifierKey).toMatch(/^vbu[0-9a-f]{40}$/);
  expect(first.given).toBe(1);
  expect(apigateway.commandCalls(CreateApiKeyCommand).map((c) => c.args[0].input)).toContainEqual(
    expect.objectContaining({ name: 'key_old', value: stored!.usageIdentifierKey }),
  );

  // Re-run: the API key exists (found by name) and is already in the plan; nothing new is created or changed.
  apigateway.reset();
  apigateway
    .on(GetApiKeysCommand)
    .callsFake((input: { nameQuery: string }) => ({ items: [{ id: `agk-${input.nameQuery}`, name: input.nameQuery }] }));
  apigateway.on(CreateUsagePlanKeyCommand).rejects(Object.assign(new Error('exists'), { name: 'ConflictException' }));
  const second = await syncUsagePlan(target);
  expect(second.given).toBe(0);
  expect(apigateway.commandCalls(CreateApiKeyCommand)).toHaveLength(0);
  expect((await new DynamoKeyStore(dynamo.client, 'keys').findById('key_old'))?.usageIdentifierKey).toBe(stored!.usageIdentifierKey);
});
