import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { envNames } from './env-names.ts';
import { traced } from './tracer.ts';

/**
 * SDK clients, created once per container, each captured by the tracer (its calls are subsegments of the
 * invocation's trace on Lambda). Endpoints come from the standard AWS_ENDPOINT_URL_* variables, which only the
 * local runtime sets.
 */
let dynamoBase: DynamoDBClient | undefined;
let dynamo: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

/** The plain client, for libraries that take one (Powertools idempotency); the document client shares its middleware, so its trace. */
export const dynamoBaseClient = () => (dynamoBase ??= traced(new DynamoDBClient({})));
export const dynamoClient = () =>
  (dynamo ??= DynamoDBDocumentClient.from(dynamoBaseClient(), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }));
export const s3Client = () => (s3 ??= traced(new S3Client({ forcePathStyle: process.env[envNames.s3ForcePathStyle] === 'true' })));
let s3Uploads: S3Client | undefined;
/**
 * The client that signs upload links (POST /v1/uploads). It adds no checksum of its own: with the SDK's default a
 * presigned PUT carries the CRC32 of the empty body it was signed with, and S3 refuses every real file against it.
 */
export const s3UploadSigningClient = () =>
  (s3Uploads ??= traced(
    new S3Client({ forcePathStyle: process.env[envNames.s3ForcePathStyle] === 'true', requestChecksumCalculation: 'WHEN_REQUIRED' }),
  ));
export const sqsClient = () => (sqs ??= traced(new SQSClient({})));
