import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { envNames } from './env-names.ts';

/**
 * SDK clients, created once per container. Endpoints come from the standard AWS_ENDPOINT_URL_* variables,
 * which only the local runtime sets.
 */
let dynamoBase: DynamoDBClient | undefined;
let dynamo: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

/** The plain client, for libraries that take one (Powertools idempotency). */
export const dynamoBaseClient = () => (dynamoBase ??= new DynamoDBClient({}));
export const dynamoClient = () =>
  (dynamo ??= DynamoDBDocumentClient.from(dynamoBaseClient(), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }));
export const s3Client = () => (s3 ??= new S3Client({ forcePathStyle: process.env[envNames.s3ForcePathStyle] === 'true' }));
export const sqsClient = () => (sqs ??= new SQSClient({}));
