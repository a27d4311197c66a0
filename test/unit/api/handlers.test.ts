import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult, Handler } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey, issueApiKey } from '#domain/api-keys';
import { BUILT_IN_BOTS } from '#domain/bot';
import { lambdaContext, multipart, restEvent, SPEC_SAMPLE_FIELDS } from '../../support/events.ts';

// Config is read at cold start (module import), so the environment is set before the handlers load.
Object.assign(process.env, {
  TABLE_ACCOUNTS: 'accounts',
  TABLE_BOTS: 'bots',
  TABLE_ACCOUNTBOTS: 'accountBots',
  TABLE_VIDEOS: 'videos',
  TABLE_CLIPS: 'clips',
  TABLE_TEMPLATES: 'templates',
  TABLE_IDEMPOTENCY: 'idempotency',
  TABLE_KEYS: 'keys',
  QUEUE_RENDER_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/render',
  QUEUE_NOTIFY_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/notify',
  QUEUE_PREPARE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/prepare',
  BUCKET_NAME: 'vidbot-bucket',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
});

const documents = mockClient(DynamoDBDocumentClient);
const dynamo = mockClient(DynamoDBClient);
const sqs = mockClient(SQSClient);
mockClient(S3Client);

type ApiHandler = Handler<ReturnType<typeof restEvent>, APIGatewayProxyResult>;
let createVideo: ApiHandler;
let videos: ApiHandler;
let bots: ApiHandler;
let authorizer: (event: { type: 'TOKEN'; authorizationToken: string; methodArn: string }) => Promise<unknown>;

const invoke = async (handler: ApiHandler, event: ReturnType<typeof restEvent>) => {
  const result = (await handler(event, lambdaContext(), () => undefined)) as APIGatewayProxyResult;
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
};

beforeAll(async () => {
  createVideo = (await import('#functions/api/create-video.ts')).handler as ApiHandler;
  videos = (await import('#functions/api/videos.ts')).handler as ApiHandler;
  bots = (await import('#functions/api/bots.ts')).handler as ApiHandler;
  authorizer = (await import('#functions/authorizer/handler.ts')).handler as typeof authorizer;
});

beforeEach(() => {
  documents.reset();
  dynamo.reset();
  sqs.reset();
  documents.on(ScanCommand, { TableName: 'bots' }).resolves({ Items: [...BUILT_IN_BOTS] });
  // The account has no bots of its own.
  documents.on(GetCommand, { TableName: 'accountBots' }).resolves({});
  documents.on(QueryCommand, { TableName: 'accountBots' }).resolves({ Items: [] });
  documents.on(PutCommand).resolves({});
  // An account without its own limit, and no video in progress.
  documents.on(GetCommand, { TableName: 'accounts' }).resolves({ Item: { tenantId: 'acct_test', name: 'test', createdAt: '2026-01-01T00:00:00Z' } });
  documents.on(QueryCommand, { TableName: 'videos', IndexName: 'byTenant' }).resolves({ Count: 0 });
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});

describe('POST /v1/bot and /v1/create_video: create a video', () => {
  it('accepts the spec sample as multipart form fields and queues one render per clip', async () => {
    const { body, contentType } = await multipart(SPEC_SAMPLE_FIELDS);
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'Content-Type': contentType }, body }));

    expect(response.statusCode).toBe(202);
    expect(response.json).toMatchObject({ status: 'queued', create_video: true, clips: 2 });
    expect(response.json.video_id).toMatch(/^vid_/);
    expect(response.json.url).toBe(`https://abc123.execute-api.eu-west-1.amazonaws.com/prod/v1/video/${response.json.video_id}`);
    expect(response.headers?.Location).toBe(response.json.url);
    const stored = documents.commandCalls(PutCommand)[0]!.args[0].input.Item!;
    expect(stored).toMatchObject({
      videoId: response.json.video_id,
      tenantId: 'acct_test',
      keyId: 'key_test',
      status: 'queued',
      webhookUrl: 'https://www.website.com/webhook',
    });
    expect(stored.clips[1]).toMatchObject({ botUid: 'bot_leo', position: 'top-left', clipName: 'Tour', reusable: true });
    const entries = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries!;
    expect(entries.map((e) => JSON.parse(e.MessageBody!))).toEqual([
      { kind: 'render-clip', tenantId: 'acct_test', videoId: response.json.video_id, clipIndex: 0 },
      { kind: 'render-clip', tenantId: 'acct_test', videoId: response.json.video_id, clipIndex: 1 },
    ]);
  });

  it('accepts a JSON body with process_done_webhook on /v1/create_video', async () => {
    const body = JSON.stringify({
      process_done_webhook: 'https://hooks.example.com/done',
      create_video: false,
      clips: [{ bot_uid: 'bot_otto', text: 'Hi' }],
    });
    const response = await invoke(
      createVideo,
      restEvent({ method: 'POST', path: '/v1/create_video', headers: { 'content-type': 'application/json' }, body }),
    );
    expect(response.statusCode).toBe(202);
    expect(response.json).toMatchObject({ create_video: false, clips: 1 });
  });

  it('accepts a URL-encoded form', async () => {
    const body = new URLSearchParams({ webhook: 'https://e.com/h', clips: `[{"bot_uid": 'bot_maya', "text": 'Hi'}]` }).toString();
    const response = await invoke(
      createVideo,
      restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
    );
    expect(response.statusCode).toBe(202);
  });

  it.each([
    ['multipart', async () => multipart({ webhook: 'https://e.com/h', captions: 'burn', clips: `[{"bot_uid": 'bot_ava', "text": 'Hi'}]` })],
    [
      'urlencoded',
      async () => ({
        body: new URLSearchParams({ webhook: 'https://e.com/h', captions: 'BURN', clips: `[{"bot_uid": 'bot_ava', "text": 'Hi'}]` }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      }),
    ],
    [
      'json',
      async () => ({
        body: JSON.stringify({ webhook: 'https://e.com/h', captions: 'burn', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }),
        contentType: 'application/json',
      }),
    ],
  ])('reads captions: "burn" from a %s body onto every clip', async (_form, make) => {
    const { body, contentType } = await make();
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': contentType }, body }));
    expect(response.statusCode).toBe(202);
    expect(documents.commandCalls(PutCommand)[0]!.args[0].input.Item!.clips[0]).toMatchObject({ botUid: 'bot_ava', captions: 'burn' });
  });

  it.each([
    ['multipart', async () => multipart({ webhook: 'https://e.com/h', captions: 'subtitles', clips: `[{"bot_uid": 'bot_ava', "text": 'Hi'}]` })],
    [
      'urlencoded',
      async () => ({
        body: new URLSearchParams({ webhook: 'https://e.com/h', captions: 'yes', clips: `[{"bot_uid": 'bot_ava', "text": 'Hi'}]` }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      }),
    ],
    [
      'json',
      async () => ({
        body: JSON.stringify({ webhook: 'https://e.com/h', captions: true, clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }),
        contentType: 'application/json',
      }),
    ],
  ])('answers 400 naming captions when a %s body gives a bad value, and stores nothing', async (_form, make) => {
    const { body, contentType } = await make();
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': contentType }, body }));
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toEqual([{ path: 'captions', message: 'must be one of none, burn' }]);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('stores no captions field on the clips by default (captions: "none")', async () => {
    const body = JSON.stringify({ webhook: 'https://e.com/h', captions: 'none', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] });
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json' }, body }));
    expect(response.statusCode).toBe(202);
    expect(documents.commandCalls(PutCommand)[0]!.args[0].input.Item!.clips[0].captions).toBeUndefined();
  });

  it('answers 400 naming an unknown bot, and stores and queues nothing', async () => {
    const body = JSON.stringify({ webhook: 'https://e.com/h', clips: [{ bot_uid: 'bot_nobody', text: 'Hi' }] });
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json' }, body }));
    expect(response.statusCode).toBe(400);
    expect(response.json.error).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'clips[0].bot_uid', message: expect.stringContaining('bot_nobody') }],
    });
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('answers 400 naming an unknown voice, and a Polly voice where the deployment does not use Polly', async () => {
    const clips = [
      { bot_uid: 'bot_ava', text: 'Hola', voice: 'espeak:es+f3' },
      { bot_uid: 'bot_ava', text: 'Hi', voice: 'espeak:xx+f3' },
      { bot_uid: 'bot_ava', text: 'Hola', voice: 'polly:Lucia' },
    ];
    const response = await invoke(
      createVideo,
      restEvent({
        method: 'POST',
        path: '/v1/bot',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ webhook: 'https://e.com/h', clips }),
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toEqual([
      { path: 'clips[1].voice', message: 'unknown voice "espeak:xx+f3"; list the voices with GET /v1/voices' },
      { path: 'clips[2].voice', message: 'unknown voice "polly:Lucia"; list the voices with GET /v1/voices' },
    ]);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('stores the voice a clip names, in every body form, for the render', async () => {
    const clips = `[{"bot_uid": 'bot_leo', "text": 'Hola a todos', "voice": 'espeak:es-419+m3'}]`;
    const { body, contentType } = await multipart({ webhook: 'https://e.com/h', clips });
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'Content-Type': contentType }, body }));
    expect(response.statusCode).toBe(202);
    expect(documents.commandCalls(PutCommand)[0]!.args[0].input.Item!.clips[0]).toMatchObject({ botUid: 'bot_leo', voice: 'espeak:es-419+m3' });
    const form = new URLSearchParams({ webhook: 'https://e.com/h', clips }).toString();
    const formResponse = await invoke(
      createVideo,
      restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }),
    );
    expect(formResponse.statusCode).toBe(202);
    expect(documents.commandCalls(PutCommand)[1]!.args[0].input.Item!.clips[0]).toMatchObject({ voice: 'espeak:es-419+m3' });
  });

  it.each([
    ['text/plain', 'hello', 415, 'unsupported_media_type'],
    ['application/json', '{"webhook": ', 400, 'invalid_request'],
    ['application/json', '[1,2]', 400, 'invalid_request'],
    ['application/json', '{"constructor": {"prototype": 1}}', 400, 'invalid_request'],
    ['application/json', `{"webhook":"https://e.com","clips":"${'x'.repeat(300_000)}"}`, 413, 'payload_too_large'],
  ])('content-type %s with a bad body answers %i', async (contentType, body, status, code) => {
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': contentType }, body }));
    expect(response.statusCode).toBe(status);
    expect(response.json.error.code).toBe(code);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it.each([
    ['webhook', { webhook: 'http://169.254.169.254/latest/meta-data', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }],
    ['webhook', { webhook: 'http://[::1]:8080/hook', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }],
    ['clips[0].background', { webhook: 'https://e.com/h', clips: [{ bot_uid: 'bot_ava', text: 'Hi', background: 'http://10.0.0.1/bg.mp4' }] }],
    [
      'clips[0].background',
      { webhook: 'https://e.com/h', clips: [{ bot_uid: 'bot_ava', text: 'Hi', background: 'http://metadata.google.internal/x' }] },
    ],
  ])('refuses at once a %s that names an address vidbot never connects to (on AWS)', async (path, fields) => {
    const response = await invoke(
      createVideo,
      restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details[0]).toMatchObject({ path, message: expect.stringContaining('does not connect to') });
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('leaves no video behind when the render messages cannot be queued', async () => {
    sqs.on(SendMessageBatchCommand).rejects(new Error('SQS is down'));
    documents.on(DeleteCommand).resolves({});
    const body = JSON.stringify({ webhook: 'https://e.com/h', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] });
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json' }, body }));
    expect(response.statusCode).toBe(500);
    const stored = documents.commandCalls(PutCommand)[0]!.args[0].input.Item!;
    expect(documents.commandCalls(DeleteCommand)[0]!.args[0].input.Key).toEqual({ videoId: stored.videoId });
  });

  it('builds the video URL from the served domain, not from a client-sent X-Forwarded-Host', async () => {
    const body = JSON.stringify({ webhook: 'https://e.com/h', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] });
    const response = await invoke(
      createVideo,
      restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json', 'X-Forwarded-Host': 'evil.example' }, body }),
    );
    expect(response.statusCode).toBe(202);
    expect(response.json.url).toMatch(/^https:\/\/abc123\.execute-api\.eu-west-1\.amazonaws\.com\/prod\/v1\/video\//);
  });

  it('refuses invalid UTF-8', async () => {
    const body = Buffer.concat([Buffer.from('{"webhook":"https://e.com","clips":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json' }, body }));
    expect(response.statusCode).toBe(400);
  });

  it("answers 429 too_many_videos_in_progress with Retry-After at the account's limit, and stores and queues nothing", async () => {
    // Prepare: 20 videos in progress (the default limit), then an account allowed 21.
    documents.on(QueryCommand, { TableName: 'videos', IndexName: 'byTenant' }).resolves({ Count: 20 });
    const body = JSON.stringify({ webhook: 'https://hooks.example.com/done', clips: [{ bot_uid: 'bot_ava', text: 'One more, please.' }] });
    const event = restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json' }, body });
    // Act
    const refused = await invoke(createVideo, event);
    // Assess
    expect(refused.statusCode).toBe(429);
    expect(refused.headers?.['Retry-After']).toBe('30');
    expect(refused.json).toEqual({ error: { code: 'too_many_videos_in_progress', message: expect.stringMatching(/already has 20 videos/) } });
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
    const query = documents.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query).toMatchObject({ IndexName: 'byTenant', Select: 'COUNT', ExpressionAttributeValues: { ':t': 'acct_test' } });

    documents
      .on(GetCommand, { TableName: 'accounts' })
      .resolves({ Item: { tenantId: 'acct_test', name: 'test', createdAt: '2026-01-01T00:00:00Z', maxVideosInProgress: 21 } });
    expect((await invoke(createVideo, event)).statusCode).toBe(202);
  });

  it('answers 400, not 429, to an invalid request at the limit', async () => {
    documents.on(QueryCommand, { TableName: 'videos', IndexName: 'byTenant' }).resolves({ Count: 20 });
    const body = JSON.stringify({ webhook: 'https://hooks.example.com/done', clips: [{ bot_uid: 'bot_ava', text: '\u200B' }] });
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot', headers: { 'content-type': 'application/json' }, body }));
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toEqual([{ path: 'clips[0].text', message: expect.any(String) }]);
  });

  it('answers 401 with WWW-Authenticate when no caller reached the handler', async () => {
    const response = await invoke(
      createVideo,
      restEvent({ method: 'POST', path: '/v1/bot', caller: null, headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(response.statusCode).toBe(401);
    expect(response.headers?.['WWW-Authenticate']).toBe('Bearer realm="vidbot"');
  });
});

describe('POST /v1/bot/ (trailing slash): list bots', () => {
  it('reaches the /v1/bot resource with the raw path and lists the bots', async () => {
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot/', resource: '/v1/bot' }));
    expect(response.statusCode).toBe(200);
    expect(response.json.bots.map((b: { uid: string }) => b.uid)).toEqual(['bot_ava', 'bot_leo', 'bot_maya', 'bot_otto']);
    expect(response.json.bots[0]).toMatchObject({
      name: 'Ava',
      default_position: 'bottom-right',
      preview_image_url: expect.stringContaining('bots/ava/preview.png'),
    });
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });
});

describe('GET /v1/video/{id}', () => {
  it("answers 404 for another tenant's video, exactly as for a missing one", async () => {
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: { videoId: 'vid_other', tenantId: 'acct_other', status: 'queued' } });
    const theirs = await invoke(
      videos,
      restEvent({ method: 'GET', path: '/v1/video/vid_other', resource: '/v1/video/{id}', pathParameters: { id: 'vid_other' } }),
    );
    documents.on(GetCommand, { TableName: 'videos' }).resolves({});
    const missing = await invoke(
      videos,
      restEvent({ method: 'GET', path: '/v1/video/vid_none', resource: '/v1/video/{id}', pathParameters: { id: 'vid_none' } }),
    );
    expect(theirs.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a redelivery while the event is still being delivered (409), allows it once delivered or failed', async () => {
    const video = {
      videoId: 'vid_mine',
      tenantId: 'acct_test',
      status: 'completed',
      delivery: { state: 'delivering', attempts: [{ attempt: 1 }], eventId: 'evt_vid_mine_completed' },
    };
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: video });
    const event = restEvent({
      method: 'POST',
      path: '/v1/video/vid_mine/redeliver',
      resource: '/v1/video/{id}/redeliver',
      pathParameters: { id: 'vid_mine' },
    });
    expect((await invoke(videos, event)).statusCode).toBe(409);
    sqs.on(SendMessageCommand).resolves({});
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: { ...video, delivery: { ...video.delivery, state: 'failed' } } });
    const accepted = await invoke(videos, event);
    expect(accepted.statusCode).toBe(202);
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!)).toMatchObject({ redelivery: true, attempt: 2 });
  });

  it('DELETE answers 200 with a JSON body (the public client reads every answer as JSON), 409 while unfinished', async () => {
    const video = { videoId: 'vid_mine', tenantId: 'acct_test', status: 'rendering', delivery: { state: 'pending', attempts: [] } };
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: video });
    documents.on(DeleteCommand).resolves({});
    const event = restEvent({ method: 'DELETE', path: '/v1/video/vid_mine', resource: '/v1/video/{id}', pathParameters: { id: 'vid_mine' } });
    expect((await invoke(videos, event)).statusCode).toBe(409);
    expect(documents.commandCalls(DeleteCommand)).toHaveLength(0);

    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: { ...video, status: 'failed' } });
    const deleted = await invoke(videos, event);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.headers?.['Content-Type']).toMatch(/^application\/json/);
    expect(deleted.json).toEqual({ video_id: 'vid_mine', deleted: true });
    expect(documents.commandCalls(DeleteCommand)[0]!.args[0].input.Key).toEqual({ videoId: 'vid_mine' });
  });

  it('answers 405 for a method the resource does not serve, 400 for a bad limit', async () => {
    const wrong = await invoke(videos, restEvent({ method: 'PUT', path: '/v1/video', resource: '/v1/video' }));
    expect(wrong.statusCode).toBe(405);
    documents.on(QueryCommand).resolves({ Items: [] });
    const badLimit = await invoke(videos, restEvent({ method: 'GET', path: '/v1/video', query: { limit: '5000' } }));
    expect(badLimit.statusCode).toBe(400);
  });
});

describe('PUT and DELETE /v1/bot/{uid}: another request changed the bot meanwhile', () => {
  const lost = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
  const botEvent = (method: 'PUT' | 'DELETE', body?: unknown) =>
    restEvent({
      method,
      path: '/v1/bot/my-bot',
      resource: '/v1/bot/{uid}',
      pathParameters: { uid: 'my-bot' },
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });

  it('answers 409 conflict and queues nothing when the conditional write loses', async () => {
    documents.on(PutCommand, { TableName: 'accountBots' }).rejects(lost());
    const put = await invoke(bots, botEvent('PUT', { name: 'Mine', image_url: 'https://images.example.com/me.jpg' }));
    expect(put.statusCode, put.body).toBe(409);
    expect(put.json.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/changed by another request/) });
    // No record was read, so the write expected none.
    expect(documents.commandCalls(PutCommand)[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(uid)');
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);

    const stored = {
      tenantId: 'acct_test',
      uid: 'my-bot',
      keyId: 'key_test',
      name: 'Mine',
      description: '',
      voice: 'espeak:en-us+f3',
      defaultPosition: 'center',
      status: 'ready',
      version: 'v_read',
      source: { kind: 'photo_url', url: 'https://images.example.com/me.jpg' },
      createdAt: '2026-11-23T00:00:00Z',
      updatedAt: '2026-11-23T00:00:00Z',
    };
    documents.on(GetCommand, { TableName: 'accountBots' }).resolves({ Item: stored });
    documents.on(DeleteCommand, { TableName: 'accountBots' }).rejects(lost());
    const deleted = await invoke(bots, botEvent('DELETE'));
    expect(deleted.statusCode, deleted.body).toBe(409);
    expect(deleted.json.error).toMatchObject({ code: 'conflict' });
    // The record as read: its version, and its last update (a preparation that settled since changes it).
    expect(documents.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: '#version = :version AND #updatedAt = :updatedAt',
      ExpressionAttributeValues: { ':version': 'v_read', ':updatedAt': '2026-11-23T00:00:00Z' },
    });
  });
});

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
