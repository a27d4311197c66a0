/** The API key authorizer against a mocked keys table. */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hashApiKey, issueApiKey } from '#domain/api-keys';
import { authorizer, documents, useMockedApi } from '../../support/api-handlers.ts';

useMockedApi();

describe('authorizer', () => {
  const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/POST/v1/bot';
  const issued = issueApiKey({ tenantId: 'acct_1', name: 'acme', now: new Date() });

  it('allows a known key for every method and path of the stage, passing the tenant', async () => {
    documents.on(GetCommand, { TableName: 'keys', Key: { keyHash: hashApiKey(issued.apiKey) } }).resolves({ Item: issued.record });
    const result = (await authorizer({ type: 'TOKEN', authorizationToken: `Bearer ${issued.apiKey}`, methodArn })) as {
      policyDocument: { Statement: { Effect: string; Resource: string }[] };
      context: Record<string, string>;
    };
    expect(result.policyDocument.Statement[0]).toMatchObject({
      Effect: 'Allow',
      Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*/*',
    });
    expect(result.context).toEqual({ tenantId: 'acct_1', keyId: issued.record.keyId });
    // The usage plan throttles by this; it is not the bearer key.
    expect((result as { usageIdentifierKey?: string }).usageIdentifierKey).toBe(issued.record.usageIdentifierKey);
    expect(issued.record.usageIdentifierKey).not.toContain(issued.apiKey.slice(3));
  });

  it('names no usage-plan key for a key issued before usage plans (API Gateway then answers 403)', async () => {
    const { usageIdentifierKey: _none, ...old } = issued.record;
    documents.on(GetCommand, { TableName: 'keys', Key: { keyHash: hashApiKey(issued.apiKey) } }).resolves({ Item: old });
    const result = (await authorizer({ type: 'TOKEN', authorizationToken: `Bearer ${issued.apiKey}`, methodArn })) as Record<string, unknown>;
    expect(result.principalId).toBe(issued.record.keyId);
    expect(result).not.toHaveProperty('usageIdentifierKey');
  });

  it.each([
    ['missing scheme', issued.apiKey],
    ['malformed', 'Bearer not-a-key'],
    ['empty', ''],
  ])('refuses a %s header with Unauthorized', async (_label, token) => {
    await expect(authorizer({ type: 'TOKEN', authorizationToken: token, methodArn })).rejects.toThrow('Unauthorized');
  });

  it('reads the key from a REQUEST authorizer event too', async () => {
    documents.on(GetCommand, { TableName: 'keys', Key: { keyHash: hashApiKey(issued.apiKey) } }).resolves({ Item: issued.record });
    const result = (await authorizer({ type: 'REQUEST', methodArn, headers: { authorization: `Bearer ${issued.apiKey}` } } as never)) as {
      context: Record<string, string>;
    };
    expect(result.context.tenantId).toBe('acct_1');
  });

  it('refuses unknown and revoked keys', async () => {
    documents.on(GetCommand, { TableName: 'keys' }).resolves({});
    await expect(authorizer({ type: 'TOKEN', authorizationToken: `Bearer ${issued.apiKey}`, methodArn })).rejects.toThrow('Unauthorized');
    documents.on(GetCommand, { TableName: 'keys' }).resolves({ Item: { ...issued.record, revokedAt: new Date().toISOString() } });
    await expect(authorizer({ type: 'TOKEN', authorizationToken: `Bearer ${issued.apiKey}`, methodArn })).rejects.toThrow('Unauthorized');
  });
});
