/** POST /v1/bot and /v1/create_video through the create-video handler, against mocked AWS clients. */

import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createVideo, documents, invoke, sqs, useMockedApi } from '../../support/api-handlers.ts';
import { multipart, restEvent, SPEC_SAMPLE_FIELDS } from '../../support/events.ts';

useMockedApi();

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
    ['music.url', { webhook: 'https://e.com/h', music: { url: 'http://169.254.169.254/bed.mp3' }, clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }],
    ['music.url', { webhook: 'https://e.com/h', music: { url: 'http://192.168.1.10/bed.mp3' }, clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }],
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
