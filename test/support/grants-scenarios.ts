/**
 * The scenarios of test/integration/infra/grants.test.ts: every function of the wiring driven through the requests,
 * messages and schedules that reach the branches of its AWS calls, against the run in test/support/grants-run.ts.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { signWebhook } from '#commons/webhooks/signature';
import type { AccountBot } from '#domain/account-bot';
import { lookFileKey, uploadKey } from '#domain/bucket-layout';
import type { PrepareBotMessage } from '#domain/messages';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { restEvent } from './events.ts';
import {
  batchIds,
  caller,
  dataDir,
  doc,
  drain,
  emulators,
  http,
  invoke,
  names,
  pollyBot,
  provisioned,
  recorder,
  setDeadline,
  tenant,
  videoIds,
  videoPath,
} from './grants-run.ts';
import { ACCOUNT, REGION } from './iam-needs.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

/** Runs every function of the wiring through the scenarios that reach its AWS calls. */
export async function runScenarios() {
  const ok = await startWebhookReceiver(tenant.webhookSecret);
  const failing = await startWebhookReceiver(tenant.webhookSecret, () => 500);
  const files = await startFileServer({ '/logo.png': join(REPO_ROOT, 'functions/render/bots/ava/body.png') });
  try {
    // Authorizer: a known key, an unknown one.
    const authorizerEvent = (key: string) => ({
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:${REGION}:${ACCOUNT}:api/prod/GET/v1/account`,
      headers: { Authorization: `Bearer ${key}` },
    });
    expect((await invoke('authorizer', authorizerEvent(tenant.apiKey))).principalId).toBe(tenant.keyId);
    await expect(invoke('authorizer', authorizerEvent(`vb_${'A'.repeat(43)}`))).rejects.toThrow('Unauthorized');

    // Bots, voices and meta.
    expect((await http('bots', 'GET', '/v1/bot')).status).toBe(200);
    expect((await http('bots', 'GET', '/v1/bot/bot_ava', { resource: '/v1/bot/{uid}', pathParameters: { uid: 'bot_ava' } })).status).toBe(200);
    expect((await http('createVideo', 'POST', '/v1/bot/', { resource: '/v1/bot' })).status).toBe(200);
    expect((await http('meta', 'GET', '/health')).status).toBe(200);
    expect((await http('voices', 'GET', '/v1/voices')).status).toBe(200);
    expect((await invoke('console', restEvent({ method: 'GET', path: '/', caller: null }))).statusCode).toBe(200);

    // The webhook inbox: a signed delivery is verified against the account's keys (byTenant) and stored; one
    // that does not verify stores nothing; the account lists what it received.
    const payload = JSON.stringify({ type: 'video.completed', data: { video_id: 'vid_grants' } });
    const delivery = (headers: Record<string, string>) =>
      invoke(
        'inboxReceive',
        restEvent({
          method: 'POST',
          path: `/v1/inbox/${tenant.tenantId}`,
          resource: '/v1/inbox/{account}',
          pathParameters: { account: tenant.tenantId },
          headers,
          body: payload,
          caller: null,
        }),
      );
    const signedHeaders = signWebhook({ msgId: 'evt_grants', timestamp: new Date(), payload, secrets: [tenant.webhookSecret] });
    expect((await delivery(signedHeaders)).statusCode).toBe(200);
    expect((await delivery({ ...signedHeaders, 'webhook-signature': 'v1,AAAA' })).statusCode).toBe(401);
    expect((await http('inbox', 'GET', '/v1/inbox')).body.events).toHaveLength(1);

    // The lexicon: replaced, read, removed, and saved again for the renders below to read.
    const lexicon = { entries: [{ word: 'Ada', say: 'Ay da' }] };
    // An upload: recorded, and its PUT link signed (presigning makes no call; the caller's PUT is the bucket's).
    expect((await http('uploads', 'POST', '/v1/uploads', { body: { content_type: 'audio/wav', size: 1024 } })).status).toBe(201);
    expect((await http('lexicon', 'PUT', '/v1/lexicon', { body: lexicon })).status).toBe(200);
    expect((await http('lexicon', 'GET', '/v1/lexicon')).body.entries).toHaveLength(1);
    expect((await http('lexicon', 'DELETE', '/v1/lexicon')).status).toBe(200);
    expect((await http('lexicon', 'PUT', '/v1/lexicon', { body: lexicon })).status).toBe(200);

    // Templates: saved (its bots checked), read, listed, a video made from it, deleted.
    const templatePath = { resource: '/v1/templates/{uid}', pathParameters: { uid: 'grants' } };
    const template = { name: 'Grants', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi {{name}}.' }] };
    expect((await http('templates', 'PUT', '/v1/templates/grants', { ...templatePath, body: template })).status).toBe(200);
    expect((await http('templates', 'GET', '/v1/templates/grants', templatePath)).status).toBe(200);
    expect((await http('templates', 'GET', '/v1/templates')).body.templates).toHaveLength(1);
    const fromTemplate = await http('createVideo', 'POST', '/v1/templates/grants/videos', {
      resource: '/v1/templates/{uid}/videos',
      pathParameters: { uid: 'grants' },
      body: { webhook: `${ok.url}/template`, variables: { name: 'Ada' } },
    });
    expect(fromTemplate.status, JSON.stringify(fromTemplate.body)).toBe(202);

    // Batches: one sent (its rows checked, its input stored, its first look queued), listed, read; another
    // cancelled. The batcher makes the first one's video now; it settles at the end (batch.completed, below).
    const batchBody = { webhook: `${ok.url}/batch`, rows: [{ name: 'Ada' }] };
    const batchPost = { resource: '/v1/templates/{uid}/batches', pathParameters: { uid: 'grants' } };
    const sent = await http('batches', 'POST', '/v1/templates/grants/batches', {
      ...batchPost,
      body: batchBody,
      headers: { 'Idempotency-Key': 'grants-b' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    batchIds.push(sent.body.batch_id);
    const cancelled = await http('batches', 'POST', '/v1/templates/grants/batches', { ...batchPost, body: batchBody });
    const batchPath = (id: string) => ({ resource: '/v1/batches/{id}', pathParameters: { id } });
    expect((await http('batches', 'DELETE', `/v1/batches/${cancelled.body.batch_id}`, batchPath(cancelled.body.batch_id))).status).toBe(202);
    expect((await http('batches', 'GET', '/v1/batches')).body.batches).toHaveLength(2);
    await drain('batch', 'batcher');
    expect((await http('batches', 'GET', `/v1/batches/${sent.body.batch_id}`, batchPath(sent.body.batch_id))).body.videos[0].video_id).toMatch(
      /^vid_/,
    );
    expect((await http('templates', 'DELETE', '/v1/templates/grants', templatePath)).status).toBe(200);

    // v1: a video with a temporary render and a kept clip, created with an Idempotency-Key and retried.
    const create = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const res = await http('createVideo', 'POST', '/v1/bot', { body, headers });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return res.body.video_id as string;
    };
    const v1Body = {
      webhook: `${ok.url}/v1`,
      clips: [
        { bot_uid: 'bot_ava', text: 'Grants one.' },
        { bot_uid: 'bot_leo', text: 'Grants two.', reusable_clip: true },
      ],
    };
    videoIds.v1 = await create(v1Body, { 'Idempotency-Key': 'grants-1' });
    expect(await create(v1Body, { 'Idempotency-Key': 'grants-1' })).toBe(videoIds.v1);
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');

    // v2: reuses v1's kept clip, copies v1's temporary render into a kept one, speaks with Polly; its webhook
    // fails, so the notifier reschedules the attempt.
    const { body: kept } = await http('videos', 'GET', '/v1/clips');
    videoIds.v2 = await create({
      webhook: `${failing.url}/v2`,
      clips: [
        { clip_uid: kept.clips[0].clip_uid },
        { bot_uid: 'bot_ava', text: 'Grants one.', reusable_clip: true },
        { bot_uid: pollyBot.uid, text: 'Polly.' },
      ],
    });
    // v3: voice only; the video ends while its output is being stored, so assemble discards the output.
    videoIds.v3 = await create({ webhook: `${ok.url}/v3`, create_video: false, clips: [{ bot_uid: 'bot_otto', text: 'Grants three.' }] });
    // v4: the render hands it to the fetch stage, which stores its logo in the bucket and finds its background
    // missing, so it fails the video.
    videoIds.v4 = await create({
      webhook: `${ok.url}/v4`,
      clips: [{ bot_uid: 'bot_maya', text: 'Grants four.', background: `${files.base}/missing.mp4` }],
      logo: { url: `${files.base}/logo.png` },
    });
    const repository = new DynamoVideoRepository(doc, names.table('videos'));
    recorder.beforeCall(async (call) => {
      if (
        call.function === 'assemble' &&
        (call.operation === 'PutObject' || call.operation === 'CopyObject') &&
        String(call.input.Key).includes(videoIds.v3!)
      ) {
        await repository.fail(
          videoIds.v3!,
          { code: 'deadline_exceeded', message: 'ended by the grants test during assembly' },
          `evt_grants_${videoIds.v3}`,
        );
      }
    });
    await drain('render', 'render');
    await drain('fetch', 'fetcher');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');

    // The videos function on a delivered video: read, list, download, redeliver, then delete.
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v1}`, videoPath(videoIds.v1))).body.status).toBe('completed');
    expect((await http('videos', 'GET', '/v1/video')).status).toBe(200);
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v1}/download`, videoPath(videoIds.v1, '/download'))).status).toBe(302);
    expect((await http('videos', 'POST', `/v1/video/${videoIds.v1}/redeliver`, videoPath(videoIds.v1, '/redeliver'))).status).toBe(202);
    await drain('notify', 'notifier');
    expect((await http('account', 'GET', '/v1/account')).status).toBe(200);
    expect((await http('videos', 'DELETE', `/v1/video/${videoIds.v1}`, videoPath(videoIds.v1))).status).toBeLessThan(300);

    // Bots of the account: a drawn bot by multipart (prepared for real: its look written under looks/, bot.ready
    // delivered) and a photo by an image_url that answers 404 (failed: uploads removed, bot.failed delivered); then a
    // ready bot with its look in the bucket, rendered into v7 (the render fetches looks/), and deleted with its look.
    const botPath = (uid: string) => ({ resource: '/v1/bot/{uid}', pathParameters: { uid } });
    const drawn = (file: string) => new Blob([readFileSync(join(REPO_ROOT, 'functions/render/bots/ava', file))], { type: 'image/png' });
    /** PUT /v1/bot/{uid} of a drawn bot, by multipart. */
    const putDrawn = async (uid: string) => {
      const form = new FormData();
      form.set('name', 'Drawn');
      form.set('webhook', `${ok.url}/bot`);
      form.set('mouth_closed', drawn('head-m0-eo.png'), 'closed.png');
      form.set('mouth_open', drawn('head-m4-eo.png'), 'open.png');
      const multipart = new Response(form);
      return invoke(
        'bots',
        restEvent({
          method: 'PUT',
          path: `/v1/bot/${uid}`,
          ...botPath(uid),
          headers: { 'Content-Type': multipart.headers.get('content-type')! },
          body: Buffer.from(await multipart.arrayBuffer()),
          caller: caller(),
        }),
      );
    };
    const put = await putDrawn('grants-drawn');
    expect(put.statusCode, put.body).toBe(202);
    expect(
      (await http('bots', 'PUT', '/v1/bot/grants-url', { ...botPath('grants-url'), body: { name: 'URL', image_url: `${files.base}/missing.png` } }))
        .status,
    ).toBe(202);
    // A video bot whose recording answers 404: queued on its own queue, failed by its own function.
    const videoBot = { ...botPath('grants-video'), body: { name: 'Video', video_url: `${files.base}/missing.mp4`, consent: true } };
    expect((await http('bots', 'PUT', '/v1/bot/grants-video', videoBot)).status).toBe(202);
    await drain('prepare', 'prepare');
    await drain('footage', 'prepareFootage');
    await drain('notify', 'notifier');
    expect((await http('bots', 'GET', '/v1/bot/grants-video', botPath('grants-video'))).body).toMatchObject({ status: 'failed' });
    expect((await http('bots', 'GET', '/v1/bot/grants-drawn', botPath('grants-drawn'))).body).toMatchObject({
      status: 'ready',
      webhook_delivery: { state: 'delivered' },
    });
    // Its event sent again on request (POST /v1/bot/{uid}/redeliver), and recorded on the bot by the notifier.
    const redeliver = await http('bots', 'POST', '/v1/bot/grants-drawn/redeliver', {
      resource: '/v1/bot/{uid}/redeliver',
      pathParameters: { uid: 'grants-drawn' },
    });
    expect(redeliver.status).toBe(202);
    await drain('notify', 'notifier');
    expect((await http('bots', 'GET', '/v1/bot/grants-drawn', botPath('grants-drawn'))).body.webhook_delivery.attempts).toHaveLength(2);
    expect((await http('bots', 'GET', '/v1/bot/grants-url', botPath('grants-url'))).body.status).toBe('failed');
    const version = 'v_grants';
    const look = readdirSync(join(REPO_ROOT, 'functions/render/bots/leo')).filter((f) => /\.(png|json)$/.test(f));
    for (const file of look)
      await emulators.s3.send(
        new PutObjectCommand({
          Bucket: names.bucket,
          Key: lookFileKey(tenant.tenantId, 'grants-ready', version, file),
          Body: readFileSync(join(REPO_ROOT, 'functions/render/bots/leo', file)),
        }),
      );
    const now = new Date().toISOString();
    const ready: AccountBot = {
      tenantId: tenant.tenantId,
      uid: 'grants-ready',
      keyId: tenant.keyId,
      name: 'Ready',
      description: '',
      voice: 'espeak:en-us+f3',
      defaultPosition: 'center',
      status: 'ready',
      version,
      source: { kind: 'photo_url', url: 'https://example.com/me.png' },
      look: { version, files: look, preview: 'preview.png' },
      createdAt: now,
      updatedAt: now,
    };
    await doc.send(new PutCommand({ TableName: names.table('accountBots'), Item: ready }));
    expect((await http('bots', 'GET', '/v1/bot')).body.bots.map((b: { uid: string }) => b.uid)).toContain('grants-ready');
    videoIds.v7 = await create({ webhook: `${ok.url}/v7`, clips: [{ bot_uid: 'grants-ready', text: 'My own bot.' }] });
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v7}`, videoPath(videoIds.v7))).body.status).toBe('completed');
    // Replaced while v8, accepted before, waits: the new look settles and moves the old one to retired-looks/ (copy,
    // delete), where v8's render finds it; deleting the bot then removes its looks, the retired one too.
    videoIds.v8 = await create({ webhook: `${ok.url}/v8`, clips: [{ bot_uid: 'grants-ready', text: 'My pinned look.' }] });
    expect((await putDrawn('grants-ready')).statusCode).toBe(202);
    await drain('prepare', 'prepare');
    // A render container other than v7's: the look is not in its /tmp yet.
    await rm(join(dataDir, 'tmp', 'looks'), { recursive: true, force: true });
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v8}`, videoPath(videoIds.v8))).body.status).toBe('completed');
    expect((await http('bots', 'DELETE', '/v1/bot/grants-ready', botPath('grants-ready'))).status).toBe(200);

    // Sweeper: v5's render crashed on every attempt (its message is in the render DLQ), v6 is past its deadline,
    // and v3's event must be sent again (failed, no attempt recorded, past its notify-by time).
    videoIds.v5 = await create({ webhook: `${ok.url}/v5`, clips: [{ bot_uid: 'bot_ava', text: 'Grants five.' }] });
    videoIds.v6 = await create({ webhook: `${ok.url}/v6`, clips: [{ bot_uid: 'bot_ava', text: 'Grants six.' }] });
    const { Messages = [] } = await emulators.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: provisioned.render!.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    for (const message of Messages) {
      if (message.Body?.includes(videoIds.v5))
        await emulators.sqs.send(new SendMessageCommand({ QueueUrl: provisioned.render!.dlqUrl, MessageBody: message.Body }));
      await emulators.sqs.send(new DeleteMessageCommand({ QueueUrl: provisioned.render!.url, ReceiptHandle: message.ReceiptHandle }));
    }
    // …and grants-crashed's new version crashed on every attempt (its message is in the prepare DLQ): the sweeper
    // fails it, removes its uploads (its previous look stays), and queues bot.failed.
    const crashed: AccountBot = {
      ...ready,
      uid: 'grants-crashed',
      webhookUrl: `${ok.url}/crashed`,
      status: 'preparing',
      version: 'v_crashed',
      source: { kind: 'photo', uploadKey: uploadKey(tenant.tenantId, 'grants-crashed', 'v_crashed', 'image') },
      look: { version: 'v_before', files: ['preview.png'], preview: 'preview.png' },
    };
    await doc.send(new PutCommand({ TableName: names.table('accountBots'), Item: crashed }));
    const prepareMessage: PrepareBotMessage = { kind: 'prepare-bot', tenantId: tenant.tenantId, uid: 'grants-crashed', version: 'v_crashed' };
    await emulators.sqs.send(new SendMessageCommand({ QueueUrl: provisioned.prepare!.dlqUrl, MessageBody: JSON.stringify(prepareMessage) }));
    const past = Math.floor(Date.now() / 1000) - 60;
    await setDeadline(videoIds.v6, past);
    await doc.send(
      new UpdateCommand({
        TableName: names.table('videos'),
        Key: { videoId: videoIds.v3 },
        UpdateExpression: 'SET delivery.attempts = :none, deadlineAt = :d',
        ExpressionAttributeValues: { ':none': [], ':d': past },
      }),
    );
    await invoke('sweeper', { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} });
    await drain('notify', 'notifier');

    // The batch's video is done by now: its next look (due a few seconds after the last) settles it, and the
    // notifier delivers batch.completed, recorded on the batch.
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    for (
      let i = 0;
      i < 20 &&
      (await http('batches', 'GET', `/v1/batches/${batchIds[0]}`, { resource: '/v1/batches/{id}', pathParameters: { id: batchIds[0]! } })).body
        .status !== 'completed';
      i++
    ) {
      await new Promise((r) => setTimeout(r, 500));
      await drain('batch', 'batcher');
    }
    await drain('notify', 'notifier');
    const settledBatch = await http('batches', 'GET', `/v1/batches/${batchIds[0]}`, {
      resource: '/v1/batches/{id}',
      pathParameters: { id: batchIds[0]! },
    });
    expect(settledBatch.body).toMatchObject({ status: 'completed', webhook: { state: 'delivered' } });
    expect((await http('bots', 'GET', '/v1/bot/grants-crashed', botPath('grants-crashed'))).body).toMatchObject({
      status: 'failed',
      error: { code: 'preparation_failed' },
    });
  } finally {
    await ok.stop();
    await failing.stop();
    await files.stop();
  }
}
