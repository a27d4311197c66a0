import { createHash } from 'node:crypto';
import { IdempotencyAlreadyInProgressError, IdempotencyConfig, IdempotencyValidationError, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { dynamoBaseClient } from '#commons/clients';
import { BadRequestError, IdempotencyKeyReusedError } from '#commons/errors';
import type { HttpResult, KeyedRequest } from '#commons/http';
import { canonicalJson } from '#domain/canonical-json';
import { ConflictError } from '#domain/errors';
import { limits } from '#domain/limits';

/** What names a request for its Idempotency-Key: the fields it carries, not its bytes (a multipart boundary is random). */
export const hashOf = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex');

export interface CallerInput {
  tenantId: string;
  keyId: string;
  baseUrl: string;
}

/**
 * An operation made safe to retry with an `Idempotency-Key` header: Powertools' idempotency utility keeps the first
 * response for 24 h in DynamoDB, keyed by account and key, and refuses the same key with another body (422) or
 * while the first is still running (409). Without the header the operation simply runs.
 */
export function idempotentOperation<T>(tableName: string, operation: (input: CallerInput & T) => Promise<HttpResult>) {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[tenantId, idempotencyKey]',
    payloadValidationJmesPath: 'bodyHash',
    expiresAfterSeconds: limits.idempotencyTtlSeconds,
    throwOnNoIdempotencyKey: true,
  });
  const once = makeIdempotent(async (input: CallerInput & T & { idempotencyKey: string; bodyHash: string }) => operation(input), {
    persistenceStore: new DynamoDBPersistenceLayer({ tableName, awsSdkV3Client: dynamoBaseClient() }),
    config,
  });
  return {
    registerLambdaContext: (context: Context) => config.registerLambdaContext(context),
    /** Runs the operation for this request, once per Idempotency-Key when it has one (`bodyHash` names the request). */
    async run(request: KeyedRequest, input: T, bodyHash: string): Promise<HttpResult> {
      const { caller } = request;
      const base = { tenantId: caller.tenantId, keyId: caller.keyId, baseUrl: request.baseUrl, ...input };
      const idempotencyKey = request.headers['idempotency-key']?.trim();
      if (idempotencyKey === undefined) return operation(base);
      if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
        throw new BadRequestError('Idempotency-Key must be 1-255 visible ASCII characters.', [{ path: 'Idempotency-Key', message: 'invalid' }]);
      try {
        return await once({ ...base, idempotencyKey, bodyHash });
      } catch (error) {
        if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError();
        if (error instanceof IdempotencyAlreadyInProgressError)
          throw new ConflictError('A request with this Idempotency-Key is still being processed; retry shortly.', 'idempotency_in_progress');
        throw error;
      }
    },
  };
}
