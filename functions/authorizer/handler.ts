import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, APIGatewayTokenAuthorizerEvent, Context } from 'aws-lambda';
import { DynamoKeyStore } from '#commons/aws/dynamo-stores';
import { dynamoClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { runInvocation } from '#commons/invocation';
import { logger } from '#commons/logger';
import { hashApiKey, looksLikeApiKey } from '#domain/api-keys';

const config = loadConfig({ tables: ['keys'] });
const keys = new DynamoKeyStore(dynamoClient(), config.tables.keys);

/** API Gateway answers 401 (with our gateway response body and WWW-Authenticate) when an authorizer throws exactly this. */
const unauthorized = () => new Error('Unauthorized');

/**
 * The decision is cached by API Gateway per token, so the policy allows every method and path of the stage:
 * a key allowed for POST /v1/bot is just as allowed for POST /v1/bot/ and GET /v1/video/{id}.
 */
export function stageWildcard(methodArn: string): string {
  // arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{method}/{path...}
  const [arnPrefix, stage] = methodArn.split('/');
  return `${arnPrefix}/${stage}/*/*`;
}

/** The Authorization header, from a TOKEN authorizer event or a REQUEST one (whose header names keep their case). */
function authorizationOf(event: APIGatewayTokenAuthorizerEvent | APIGatewayRequestAuthorizerEvent): string {
  if (event.type === 'TOKEN') return event.authorizationToken ?? '';
  const headers = event.headers ?? {};
  const name = Object.keys(headers).find((h) => h.toLowerCase() === 'authorization');
  return (name && headers[name]) || '';
}

export function handler(
  event: APIGatewayTokenAuthorizerEvent | APIGatewayRequestAuthorizerEvent,
  context?: Context,
): Promise<APIGatewayAuthorizerResult> {
  return runInvocation(context, () => authorize(event));
}

async function authorize(event: APIGatewayTokenAuthorizerEvent | APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorizationOf(event));
  const apiKey = match?.[1];
  if (!apiKey || !looksLikeApiKey(apiKey)) {
    logger.info('authorization refused', { reason: apiKey ? 'malformed key' : 'not a bearer token' });
    throw unauthorized();
  }
  const key = await keys.findByHash(hashApiKey(apiKey));
  if (!key || key.revokedAt) {
    logger.info('authorization refused', { reason: key ? 'revoked key' : 'unknown key', key_id: key?.keyId });
    throw unauthorized();
  }
  // The usage plan throttles each key by this value; without one API Gateway refuses the request (403).
  if (!key.usageIdentifierKey) logger.warn('key has no usage-plan key; run npm run keys -- sync-usage-plan', { key_id: key.keyId });
  return {
    principalId: key.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWildcard(event.methodArn) }],
    },
    // A test key's requests make test records (domain/test-mode.ts); REST hands `test` on as the string "true".
    context: { tenantId: key.tenantId, keyId: key.keyId, ...(key.test && { test: true }) },
    ...(key.usageIdentifierKey ? { usageIdentifierKey: key.usageIdentifierKey } : {}),
  };
}
