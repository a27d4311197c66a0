/**
 * The API handlers and the authorizer loaded in-process against mocked AWS clients: the environment they read at
 * cold start, the mocks (reset before each test to the defaults below) and `invoke`, which parses the JSON body.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult, Handler } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { lambdaContext, type restEvent } from './events.ts';

// Config is read at cold start (module import), so the environment is set before the handlers load.
Object.assign(process.env, {
  TABLE_ACCOUNTS: 'accounts',
  TABLE_BOTS: 'bots',
  TABLE_ACCOUNTBOTS: 'accountBots',
  TABLE_VIDEOS: 'videos',
  TABLE_CLIPS: 'clips',
  TABLE_TEMPLATES: 'templates',
  TABLE_LEXICONS: 'lexicons',
  TABLE_IDEMPOTENCY: 'idempotency',
  TABLE_KEYS: 'keys',
  TABLE_UPLOADS: 'uploads',
  QUEUE_RENDER_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/render',
  QUEUE_NOTIFY_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/notify',
  QUEUE_PREPARE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/prepare',
  QUEUE_FOOTAGE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/footage',
  BUCKET_NAME: 'vidbot-bucket',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
});

export const documents = mockClient(DynamoDBDocumentClient);
const dynamo = mockClient(DynamoDBClient);
export const sqs = mockClient(SQSClient);
export const s3 = mockClient(S3Client);

type ApiHandler = Handler<ReturnType<typeof restEvent>, APIGatewayProxyResult>;
export let createVideo: ApiHandler;
export let videos: ApiHandler;
export let bots: ApiHandler;
export let lexicon: ApiHandler;
export let templates: ApiHandler;
export let uploads: ApiHandler;
export let authorizer: (event: { type: 'TOKEN'; authorizationToken: string; methodArn: string }) => Promise<unknown>;

export const invoke = async (handler: ApiHandler, event: ReturnType<typeof restEvent>) => {
  const result = (await handler(event, lambdaContext(), () => undefined)) as APIGatewayProxyResult;
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
};

/** Loads the handlers once and resets the mocks before each test of the calling file. */
export function useMockedApi() {
  beforeAll(async () => {
    createVideo = (await import('#functions/api/create-video.ts')).handler as ApiHandler;
    videos = (await import('#functions/api/videos.ts')).handler as ApiHandler;
    bots = (await import('#functions/api/bots.ts')).handler as ApiHandler;
    lexicon = (await import('#functions/api/lexicon.ts')).handler as ApiHandler;
    templates = (await import('#functions/api/templates.ts')).handler as ApiHandler;
    uploads = (await import('#functions/api/uploads.ts')).handler as ApiHandler;
    authorizer = (await import('#functions/authorizer/handler.ts')).handler as typeof authorizer;
  });

  beforeEach(() => {
    documents.reset();
    dynamo.reset();
    sqs.reset();
    s3.reset();
    documents.on(ScanCommand, { TableName: 'bots' }).resolves({ Items: [...BUILT_IN_BOTS] });
    // The account has no bots of its own.
    documents.on(GetCommand, { TableName: 'accountBots' }).resolves({});
    documents.on(QueryCommand, { TableName: 'accountBots' }).resolves({ Items: [] });
    documents.on(PutCommand).resolves({});
    // An account without its own limit, and no video in progress.
    documents
      .on(GetCommand, { TableName: 'accounts' })
      .resolves({ Item: { tenantId: 'acct_test', name: 'test', createdAt: '2026-01-01T00:00:00Z' } });
    documents.on(QueryCommand, { TableName: 'videos', IndexName: 'byTenant' }).resolves({ Count: 0 });
    documents.on(QueryCommand, { TableName: 'uploads' }).resolves({ Count: 0 });
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  });
}
