/**
 * aspect_ratio and resolution: read from every body form, refused with a 400 naming the field, stored on the
 * video, shown by its presenters and the OpenAPI document, part of a clip's cache key, and a kept clip of
 * another shape refused.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult, Handler } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toPublicKeptClip } from '#commons/presenters/clip';
import { buildVideoEvent, toPublicVideo } from '#commons/presenters/video';
import { BUILT_IN_BOTS } from '#domain/bot';
import { BOT_SIZES } from '#domain/choices';
import type { ClipSpec } from '#domain/clip';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import type { KeptClip } from '#domain/ports';
import { DEFAULT_SHAPE, type Shape } from '#domain/shape';
import type { VideoRecord } from '#domain/video';
import { openApiDocument } from '#functions/api/openapi.ts';
import { cacheKeyOf } from '../../support/cache-key.ts';
import { createOnMemory, keptClip, PLAIN_CLIP } from '../../support/clip-fixtures.ts';
import { lambdaContext, multipart, restEvent } from '../../support/events.ts';

// Config is read at cold start (module import), so the environment is set before the handler loads.
Object.assign(process.env, {
  TABLE_ACCOUNTS: 'accounts',
  TABLE_BOTS: 'bots',
  TABLE_ACCOUNTBOTS: 'accountBots',
  TABLE_VIDEOS: 'videos',
  TABLE_CLIPS: 'clips',
  TABLE_TEMPLATES: 'templates',
  TABLE_UPLOADS: 'uploads',
  TABLE_IDEMPOTENCY: 'idempotency',
  QUEUE_RENDER_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/render',
  BUCKET_NAME: 'vidbot-bucket',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
});

const documents = mockClient(DynamoDBDocumentClient);
mockClient(DynamoDBClient);
const sqs = mockClient(SQSClient);
mockClient(S3Client);

type ApiHandler = Handler<ReturnType<typeof restEvent>, APIGatewayProxyResult>;
let handler: ApiHandler;

beforeAll(async () => {
  handler = (await import('#functions/api/create-video.ts')).handler as ApiHandler;
});

beforeEach(() => {
  documents.reset();
  sqs.reset();
  documents.on(ScanCommand, { TableName: 'bots' }).resolves({ Items: [...BUILT_IN_BOTS] });
  documents.on(PutCommand).resolves({});
  documents.on(GetCommand, { TableName: 'accountBots' }).resolves({});
  documents.on(QueryCommand, { TableName: 'accountBots' }).resolves({ Items: [] });
  documents.on(GetCommand, { TableName: 'accounts' }).resolves({ Item: { tenantId: 'acct_test', name: 'test', createdAt: '2026-01-01T00:00:00Z' } });
  documents.on(QueryCommand, { TableName: 'videos', IndexName: 'byTenant' }).resolves({ Count: 0 });
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});

const CLIPS = `[{"bot_uid": 'bot_ava', "text": 'Hi'}]`;

/** The create request in one of the three body forms. */
async function post(form: 'multipart' | 'urlencoded' | 'json', fields: Record<string, string>) {
  const all = { webhook: 'https://e.com/h', clips: CLIPS, ...fields };
  let body: Buffer | string;
  let contentType: string;
  if (form === 'multipart') ({ body, contentType } = await multipart(all));
  else if (form === 'urlencoded') [body, contentType] = [new URLSearchParams(all).toString(), 'application/x-www-form-urlencoded'];
  else [body, contentType] = [JSON.stringify({ ...all, clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }), 'application/json'];
  const result = (await handler(
    restEvent({ method: 'POST', path: '/v1/bot', headers: { 'Content-Type': contentType }, body }),
    lambdaContext(),
    () => undefined,
  )) as APIGatewayProxyResult;
  return { status: result.statusCode, json: JSON.parse(result.body) };
}

const FORMS = ['multipart', 'urlencoded', 'json'] as const;

describe('aspect_ratio and resolution in the create request', () => {
  it.each(FORMS)('%s: stored on the video', async (form) => {
    const response = await post(form, { aspect_ratio: '9:16', resolution: '1080p' });
    expect(response.status).toBe(202);
    const stored = documents.commandCalls(PutCommand)[0]!.args[0].input.Item!;
    expect(stored.shape).toEqual({ aspectRatio: '9:16', resolution: '1080p' });
  });

  it.each(FORMS)('%s: absent, the video is 16:9 720p', async (form) => {
    expect((await post(form, {})).status).toBe(202);
    expect(documents.commandCalls(PutCommand)[0]!.args[0].input.Item!.shape).toEqual(DEFAULT_SHAPE);
  });

  it.each(
    FORMS.flatMap(
      (form) =>
        [
          [form, 'aspect_ratio', '4:3'],
          [form, 'resolution', '4k'],
        ] as const,
    ),
  )('%s: a bad %s (%s) is a 400 naming the field, and nothing is stored', async (form, field, value) => {
    const response = await post(form, { [field]: value });
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe('invalid_request');
    expect(response.json.error.details).toEqual([{ path: field, message: expect.stringMatching(/^must be one of (16:9, 9:16, 1:1|720p, 1080p)$/) }]);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('forgives letter case and spaces, refuses a number or a list, and reports both fields at once', () => {
    const fields = { webhook: 'https://e.com', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] };
    expect(parseCreateVideo({ ...fields, aspect_ratio: ' 1 : 1 ', resolution: '1080P' }).shape).toEqual({ aspectRatio: '1:1', resolution: '1080p' });
    expect(parseCreateVideo({ ...fields, aspect_ratio: '', resolution: '' }).shape).toEqual(DEFAULT_SHAPE);
    try {
      parseCreateVideo({ ...fields, aspect_ratio: ['9:16'], resolution: 1080 });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).problems.map((p) => p.path)).toEqual(['aspect_ratio', 'resolution']);
    }
  });

  it('is described in the OpenAPI document, with its values and defaults', () => {
    const schema = openApiDocument('https://api.test').components.schemas.CreateVideoRequest as {
      properties: Record<string, { enum?: string[]; default?: string }>;
    };
    expect(schema.properties.aspect_ratio).toMatchObject({ enum: ['16:9', '9:16', '1:1'], default: '16:9' });
    expect(schema.properties.resolution).toMatchObject({ enum: ['720p', '1080p'], default: '720p' });
  });
});

const video = (shape: Shape = DEFAULT_SHAPE): VideoRecord => ({
  videoId: 'vid_1',
  tenantId: 'acct_1',
  keyId: 'key_1',
  status: 'completed',
  createVideo: true,
  shape,
  webhookUrl: 'https://e.com/h',
  clips: [],
  clipResults: {},
  clipCount: 0,
  renderedCount: 0,
  createdAt: '2026-11-23T00:00:00Z',
  updatedAt: '2026-11-23T00:00:00Z',
  completedAt: '2026-11-23T00:01:00Z',
  deadlineAt: 0,
  output: { kind: 'video', objectKey: 'o', contentType: 'video/mp4', durationSeconds: 1, sizeBytes: 1, clipDurations: [] },
  delivery: { state: 'pending', attempts: [] },
});

describe('the shape in what callers see', () => {
  it('the video record and its webhook event carry aspect_ratio and resolution', () => {
    const vertical = video({ aspectRatio: '9:16', resolution: '1080p' });
    expect(toPublicVideo(vertical, 'https://api.test')).toMatchObject({ aspect_ratio: '9:16', resolution: '1080p' });
    expect(buildVideoEvent(vertical, { url: 'https://x' }, new Date()).data).toMatchObject({ aspect_ratio: '9:16', resolution: '1080p' });
    expect(toPublicVideo(video(), 'https://api.test')).toMatchObject({ aspect_ratio: '16:9', resolution: '720p' });
  });
});

const spec = PLAIN_CLIP;

describe("the clip's cache key", () => {
  it('differs for every shape of a video clip, and not for a voice (it has no picture)', () => {
    const shapes: Shape[] = (['16:9', '9:16', '1:1'] as const).flatMap((aspectRatio) =>
      (['720p', '1080p'] as const).map((resolution) => ({ aspectRatio, resolution })),
    );
    const videoKeys = new Set(shapes.map((shape) => cacheKeyOf(spec, { mode: 'video', rendererVersion: '3', shape })));
    expect(videoKeys.size).toBe(6);
    const voiceKeys = new Set(shapes.map((shape) => cacheKeyOf(spec, { mode: 'voice', rendererVersion: '3', shape })));
    expect(voiceKeys.size).toBe(1);
    expect(cacheKeyOf(spec, { mode: 'video', rendererVersion: '3', shape: DEFAULT_SHAPE })).toBe(
      cacheKeyOf(spec, { mode: 'video', rendererVersion: '3', shape: { ...DEFAULT_SHAPE } }),
    );
  });

  it('differs for every bot size of a video clip (a clip stored before sizes is medium), and not for a voice', () => {
    const keyOf = (botSize: ClipSpec['botSize'], mode: 'video' | 'voice' = 'video') =>
      cacheKeyOf({ ...spec, botSize }, { mode, rendererVersion: '3', shape: DEFAULT_SHAPE });
    expect(new Set(BOT_SIZES.map((size) => keyOf(size))).size).toBe(BOT_SIZES.length);
    expect(keyOf(undefined)).toBe(keyOf('medium'));
    expect(new Set(BOT_SIZES.map((size) => keyOf(size, 'voice'))).size).toBe(1);
  });

  it('is pinned: a change to what is hashed must be deliberate', () => {
    // A change to the material renders every cached and kept clip again (after upgrading, `npm run start:fresh`
    // locally): the test makes it a decision, not an accident.
    expect(cacheKeyOf(spec, { mode: 'video', rendererVersion: '2', shape: DEFAULT_SHAPE })).toBe(
      'd4fd5e7bbaf1f225a6e7fb08b4eb8e28b9bc3a6939a9c6494fb25fa01b1c6649',
    );
  });
});

describe('a kept clip in a video of another shape', () => {
  const kept = (shape: Shape = DEFAULT_SHAPE, createVideo = true): KeptClip => keptClip({ shape, createVideo });
  /** The create use case on in-memory ports, with one kept clip in the library. */
  const create = (clip: KeptClip, fields: Record<string, unknown>) =>
    createOnMemory(parseCreateVideo({ webhook: 'https://e.com/h', clips: [{ clip_uid: 'clip_abc' }], ...fields }), { kept: clip });
  const refusal = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof InvalidRequestError) return error.problems;
      throw error;
    }
    throw new Error('expected a refusal');
  };

  it('is refused with a 400 naming the clip, both shapes and what to send', async () => {
    const problems = await refusal(create(kept({ aspectRatio: '9:16', resolution: '1080p' }), {}));
    expect(problems).toEqual([
      {
        path: 'clips[0].clip_uid',
        message:
          'kept clip "clip_abc" is 9:16 1080p (1080x1920) and this video is 16:9 720p (1280x720): a kept clip joins only videos of its own shape; ' +
          'send aspect_ratio=9:16 and resolution=1080p, or describe the clip in full',
      },
    ]);
  });

  it('is refused for a resolution alone', async () => {
    expect(await refusal(create(kept(), { resolution: '1080p' }))).toHaveLength(1);
    expect(await create(kept(), {})).toHaveLength(1);
  });

  it('is accepted in a video of its own shape, and in a voice-only video, and a kept voice in any shape', async () => {
    const [same] = await create(kept({ aspectRatio: '9:16', resolution: '1080p' }), { aspect_ratio: '9:16', resolution: '1080p' });
    expect(same).toMatchObject({ shape: { aspectRatio: '9:16', resolution: '1080p' }, clips: [{ reusedClipUid: 'clip_abc' }] });
    expect(await create(kept({ aspectRatio: '9:16', resolution: '1080p' }), { create_video: false })).toHaveLength(1);
    expect(await create(kept(DEFAULT_SHAPE, false), { aspect_ratio: '1:1' })).toHaveLength(1);
  });

  it('keeps the bot_size it was made with, and a clip kept before sizes stays medium (the same cache key)', async () => {
    const large = kept();
    const [video] = await create({ ...large, spec: { ...large.spec, botSize: 'large' } }, {});
    expect(video!.clips[0]).toMatchObject({ botSize: 'large', reusedClipUid: 'clip_abc' });
    const [old] = await create(kept(), {});
    expect(old!.clips[0]!.botSize).toBeUndefined();
    const hash = (clip: ClipSpec) => cacheKeyOf(clip, { mode: 'video', rendererVersion: '3', shape: DEFAULT_SHAPE });
    expect(hash(old!.clips[0]!)).toBe(hash({ ...old!.clips[0]!, botSize: 'medium' }));
  });

  it('lists its own voice among the kept clips, where its request named one', () => {
    const voiced = kept();
    expect(toPublicKeptClip({ ...voiced, spec: { ...voiced.spec, voice: 'espeak:es+m3' } })).toMatchObject({ voice: 'espeak:es+m3' });
    expect(toPublicKeptClip(voiced)).not.toHaveProperty('voice');
  });

  it('lists its shape among the kept clips', () => {
    expect(toPublicKeptClip(kept({ aspectRatio: '1:1', resolution: '720p' }))).toMatchObject({
      kind: 'video',
      aspect_ratio: '1:1',
      resolution: '720p',
    });
    expect(toPublicKeptClip(kept())).toMatchObject({ aspect_ratio: '16:9', resolution: '720p' });
  });
});
