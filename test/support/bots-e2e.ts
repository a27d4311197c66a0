/**
 * The local runtime, a webhook receiver and a second account for the end-to-end tests of an account's bots
 * (test/e2e/bots.test.ts), and the requests they make: PUT a bot from a photo or two PNGs, read it, wait for its
 * signed bot.* event, render a clip with it, download the video, and read its look out of the bucket.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect } from 'vitest';
import { lookPrefix } from '#domain/bucket-layout';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { createKey } from '#infra/scripts/keys.ts';
import { startTestRuntime, type TestRuntime } from './harness.ts';
import { eventually } from './media.ts';
import { keyTarget } from './reliability.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

export const ava = resolve(import.meta.dirname, '..', '..', 'functions', 'render', 'bots', 'ava');
export const PORTRAIT = readFileSync(resolve(import.meta.dirname, '../fixtures/prepare', 'portrait.jpg'));
export const FRAME = frameSizeOf(DEFAULT_SHAPE);
export const SPANISH = 'Hola a todos, y bienvenidos de nuevo al programa. ¡Hoy vemos algo realmente asombroso!';
const png = (file: string) => new Blob([readFileSync(join(ava, file))], { type: 'image/png' });

export let app: TestRuntime;
export let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
export let other: Record<string, string>;
export let work: string;

/** One runtime for the calling file: started before its tests, stopped after them. */
export function useBotsRuntime() {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'vidbot-bots-e2e-'));
    app = await startTestRuntime();
    receiver = await startWebhookReceiver(app.webhookSecret);
    const issued = await createKey(keyTarget(app), { name: 'another account' });
    other = { Authorization: `Bearer ${issued.apiKey}` };
  }, 60_000);
  afterAll(async () => {
    await receiver?.stop();
    await app?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });
}

export function put(uid: string, form: FormData | Record<string, unknown>, headers = app.authHeaders) {
  const body = form instanceof FormData ? form : JSON.stringify(form);
  return fetch(`${app.baseUrl}/v1/bot/${uid}`, {
    method: 'PUT',
    headers: { ...headers, ...(form instanceof FormData ? {} : { 'Content-Type': 'application/json' }) },
    body,
  });
}

function form(fields: Record<string, string>, images: Record<string, Blob>) {
  const f = new FormData();
  for (const [name, value] of Object.entries(fields)) f.set(name, value);
  for (const [name, blob] of Object.entries(images)) f.set(name, blob, `${name}.${blob.type === 'image/png' ? 'png' : 'jpg'}`);
  return f;
}

export const drawnForm = (fields: Record<string, string>) => form(fields, { mouth_closed: png('head-m0-eo.png'), mouth_open: png('head-m4-eo.png') });
export const photoForm = (fields: Record<string, string>, image: Buffer, type = 'image/jpeg') => form(fields, { image: new Blob([image], { type }) });

export const getBot = async (uid: string, headers = app.authHeaders) =>
  (await (await fetch(`${app.baseUrl}/v1/bot/${uid}`, { headers })).json()) as Record<string, any>;

/** The signed bot.* event of `uid` (one per bot in this file), once delivered. */
export const botEvent = (uid: string, timeoutMs: number) =>
  eventually(
    async () => receiver.delivered().find((r) => r.event?.type.startsWith('bot.') && r.event.data.uid === uid),
    timeoutMs,
    `a bot.* event for ${uid}`,
    100,
  );

/** Posts one clip with the bot and waits for its terminal video.* event. */
export async function renderWith(clip: Record<string, unknown>, timeoutMs = 150_000) {
  const res = await fetch(`${app.baseUrl}/v1/bot`, {
    method: 'POST',
    headers: { ...app.authHeaders, 'Content-Type': 'application/json' },
    body: JSON.stringify({ webhook: receiver.url, clips: [clip] }),
  });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(202);
  const { video_id: id } = (await res.json()) as { video_id: string };
  expect(id).toMatch(/^vid_/);
  const done = await eventually(
    async () => receiver.delivered().find((r) => r.event?.type.startsWith('video.') && r.event.data.video_id === id),
    timeoutMs,
    `video ${id} done`,
    200,
  );
  expect(done.verified).toBe(true);
  return { id, event: done.event! };
}

export async function download(id: string, file: string) {
  const res = await fetch(`${app.baseUrl}/v1/video/${id}/download`, { headers: app.authHeaders });
  expect(res.status).toBe(200);
  const path = join(work, file);
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  return path;
}

/** Copies a ready bot's look (manifest and sprites) out of the bucket, to find its mouth in the frames. */
export async function fetchLook(uid: string, version: string) {
  const s3 = new S3Client({ region: 'us-east-1', credentials: app.runtime.credentials, endpoint: app.runtime.endpoints.s3, forcePathStyle: true });
  const prefix = lookPrefix(app.tenantId, uid, version);
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: app.runtime.names.bucket, Prefix: `${prefix}/` }));
  const dir = join(work, `look-${uid}`);
  mkdirSync(dir, { recursive: true });
  for (const object of listed.Contents ?? []) {
    const got = await s3.send(new GetObjectCommand({ Bucket: app.runtime.names.bucket, Key: object.Key! }));
    writeFileSync(join(dir, object.Key!.slice(prefix.length + 1)), await got.Body!.transformToByteArray());
  }
  s3.destroy();
  return dir;
}

export async function fetchLookCount(uid: string, version: string) {
  const s3 = new S3Client({ region: 'us-east-1', credentials: app.runtime.credentials, endpoint: app.runtime.endpoints.s3, forcePathStyle: true });
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: app.runtime.names.bucket, Prefix: `${lookPrefix(app.tenantId, uid, version)}/` }));
  s3.destroy();
  return listed.KeyCount ?? 0;
}
