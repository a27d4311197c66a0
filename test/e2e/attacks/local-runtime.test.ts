/**
 * Attacks on the local runtime from the same machine: another program (or a web page) that finds the emulators'
 * ports must not read or write the service's data, and the links the API hands out must hold only as long as
 * they say. Each case failed before the emulators sat behind the verifying fronts (infra/local/emulator-front.ts).
 */
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, generateWebhookSecret, hashApiKey } from '#domain/api-keys';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

let app: TestRuntime;
const region = 'us-east-1';
/** What an attacker can sign with: the access key id is no secret (it is in every link), the secret is guessed. */
const guessed = () => ({ accessKeyId: app.runtime.credentials.accessKeyId, secretAccessKey: 'S3RVER' });

beforeAll(async () => {
  app = await startTestRuntime();
});
afterAll(async () => {
  await app?.stop();
});

const previewLink = async () => {
  const res = await fetch(`${app.baseUrl}/v1/bot/`, { method: 'POST', headers: app.authHeaders });
  expect(res.status).toBe(200);
  const { bots } = (await res.json()) as { bots: { preview_image_url: string | null }[] };
  return bots.find((bot) => bot.preview_image_url)!.preview_image_url!;
};

describe('the emulators admit only the runtime', () => {
  it('refuses unauthenticated and wrongly signed DynamoDB requests (no reading keys, no planting one)', async () => {
    const raw = await fetch(app.runtime.endpoints.dynamodb, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.ListTables' },
      body: '{}',
    });
    expect(raw.status).toBe(403);
    expect(await raw.text()).not.toContain('vidbot-');

    const doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region, credentials: guessed(), endpoint: app.runtime.endpoints.dynamodb, maxAttempts: 1 }),
    );
    await expect(doc.send(new ScanCommand({ TableName: app.runtime.names.table('keys') }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    const planted = generateApiKey();
    await expect(
      doc.send(
        new PutCommand({
          TableName: app.runtime.names.table('keys'),
          Item: {
            keyHash: hashApiKey(planted),
            keyId: 'key_planted',
            tenantId: app.tenantId,
            name: 'planted',
            createdAt: new Date().toISOString(),
            webhookSecrets: [{ secret: generateWebhookSecret(), createdAt: new Date().toISOString() }],
          },
        }),
      ),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    doc.destroy();
    expect((await fetch(`${app.baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${planted}` } })).status).toBe(401);

    // The runtime's own credentials still work.
    const own = new DynamoDBClient({ region, credentials: app.runtime.credentials, endpoint: app.runtime.endpoints.dynamodb });
    expect((await own.send(new ListTablesCommand({}))).TableNames).toContain(app.runtime.names.table('keys'));
    own.destroy();
  });

  it('refuses unauthenticated and wrongly signed S3 requests (no listing, reading or writing objects)', async () => {
    const bucket = `${app.runtime.endpoints.s3}/${app.runtime.names.bucket}`;
    expect((await fetch(`${bucket}?list-type=2`)).status).toBe(403);
    const link = new URL(await previewLink());
    expect((await fetch(`${app.runtime.endpoints.s3}${link.pathname}`)).status).toBe(403);
    expect((await fetch(`${bucket}/planted.html`, { method: 'PUT', body: '<script>alert(1)</script>' })).status).toBe(403);

    const s3 = new S3Client({ region, credentials: guessed(), endpoint: app.runtime.endpoints.s3, forcePathStyle: true, maxAttempts: 1 });
    await expect(s3.send(new ListObjectsV2Command({ Bucket: app.runtime.names.bucket }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    await expect(s3.send(new PutObjectCommand({ Bucket: app.runtime.names.bucket, Key: 'planted.html', Body: 'x' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    s3.destroy();
  });

  it('refuses unauthenticated and wrongly signed SQS requests', async () => {
    const raw = await fetch(app.runtime.endpoints.sqs, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.ListQueues' },
      body: '{}',
    });
    expect(raw.status).toBe(403);
    const sqs = new SQSClient({ region, credentials: guessed(), endpoint: app.runtime.endpoints.sqs, maxAttempts: 1 });
    await expect(sqs.send(new ListQueuesCommand({}))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    sqs.destroy();
  });

  it('gives a web page no CORS allowance: preflights and cross-origin requests are refused', async () => {
    const origin = 'https://attacker.example';
    for (const endpoint of [app.runtime.endpoints.dynamodb, `${app.runtime.endpoints.s3}/${app.runtime.names.bucket}`, app.runtime.endpoints.sqs]) {
      const preflight = await fetch(endpoint, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-amz-target' },
      });
      expect(preflight.status).toBe(403);
      expect([...preflight.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      const simple = await fetch(endpoint, { method: 'POST', headers: { Origin: origin, 'content-type': 'text/plain' }, body: '{}' });
      expect(simple.status).toBe(403);
      expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

describe('presigned links are verified', () => {
  it('serves a genuine link (also to a page, as the bucket CORS rule allows) and refuses a tampered one', async () => {
    const link = await previewLink();
    const genuine = await fetch(link);
    expect(genuine.status).toBe(200);
    expect((await genuine.arrayBuffer()).byteLength).toBeGreaterThan(100);
    const fromPage = await fetch(link, { headers: { Origin: 'http://127.0.0.1:3000' } });
    expect(fromPage.status).toBe(200);
    expect(fromPage.headers.get('access-control-allow-origin')).toBe('*');

    const url = new URL(link);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect((await fetch(url)).status).toBe(403);
    // Another object under the same signature.
    const other = new URL(link);
    other.pathname = `/${app.runtime.names.bucket}/bots/other.png`;
    expect((await fetch(other)).status).toBe(403);
  });

  it('refuses an expired link, and the same link with its expiry extended', async () => {
    const s3 = new S3Client({ region, credentials: app.runtime.credentials, endpoint: app.runtime.endpoints.s3, forcePathStyle: true });
    const key = new URL(await previewLink()).pathname.split('/').slice(2).join('/');
    const link = await getSignedUrl(s3, new GetObjectCommand({ Bucket: app.runtime.names.bucket, Key: decodeURIComponent(key) }), { expiresIn: 3 });
    s3.destroy();
    // X-Amz-Date has one-second resolution: a 1-s link can be expired by the time a loaded machine first fetches it.
    expect((await fetch(link)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 4_100));
    expect((await fetch(link)).status).toBe(403);
    const extended = new URL(link);
    extended.searchParams.set('X-Amz-Expires', '604800');
    expect((await fetch(extended)).status).toBe(403);
  });
});

describe('the data dir', () => {
  it('is private: the dir 0700, the files the runtime writes 0600, no plaintext key or webhook secret', async () => {
    const mode = async (name: string) => (await stat(join(app.dataDir, name))).mode & 0o777;
    expect(await mode('.')).toBe(0o700);
    for (const file of ['dev-tenant.json', 'runtime.json', 'local-secret', 'ports.json'])
      expect({ file, mode: await mode(file) }).toEqual({ file, mode: 0o600 });
    for (const dir of ['dynamodb', 's3']) expect({ dir, mode: await mode(dir) }).toEqual({ dir, mode: 0o700 });
    const tenantFile = await readFile(join(app.dataDir, 'dev-tenant.json'), 'utf8');
    expect(tenantFile).not.toContain(app.apiKey);
    expect(tenantFile).not.toContain(app.webhookSecret);
    expect(tenantFile).not.toContain(app.webhookSecret.slice('whsec_'.length, 30));
  });

  it('makes an older, world-readable data dir private on start and seals its plaintext dev tenant', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vidbot-attack-'));
    const apiKey = generateApiKey();
    const webhookSecret = generateWebhookSecret();
    await chmod(dataDir, 0o755);
    await mkdir(join(dataDir, 's3'), { mode: 0o755 });
    await writeFile(join(dataDir, 'dev-tenant.json'), JSON.stringify({ apiKey, webhookSecret }), { mode: 0o644 });
    const old = await startTestRuntime({ dataDir, consumers: false });
    try {
      expect(old.apiKey).toBe(apiKey);
      expect(old.webhookSecret).toBe(webhookSecret);
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(dataDir, 's3'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(dataDir, 'dev-tenant.json'))).mode & 0o777).toBe(0o600);
      expect(await readFile(join(dataDir, 'dev-tenant.json'), 'utf8')).not.toContain(webhookSecret);
    } finally {
      await old.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('starts again after its secret was replaced, with the same account and a new dev key', async () => {
    const first = await startTestRuntime({ keepDataDir: true, consumers: false });
    const { dataDir, tenantId, apiKey } = first;
    try {
      await first.stop();
      await rm(join(dataDir, 'local-secret'));
      const second = await startTestRuntime({ dataDir, consumers: false });
      try {
        expect(second.tenantId).toBe(tenantId);
        expect(second.apiKey).not.toBe(apiKey);
        expect((await fetch(`${second.baseUrl}/v1/account`, { headers: second.authHeaders })).status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps the emulator ports (and so the download links) across a restart', async () => {
    const first = await startTestRuntime({ keepDataDir: true, consumers: false });
    const { dataDir } = first;
    try {
      const endpoints = first.runtime.endpoints;
      const s3 = new S3Client({ region, credentials: first.runtime.credentials, endpoint: endpoints.s3, forcePathStyle: true });
      await s3.send(new PutObjectCommand({ Bucket: first.runtime.names.bucket, Key: 'videos/kept.mp4', Body: 'kept' }));
      const link = await getSignedUrl(s3, new GetObjectCommand({ Bucket: first.runtime.names.bucket, Key: 'videos/kept.mp4' }), { expiresIn: 3600 });
      s3.destroy();
      await first.stop();
      const second = await startTestRuntime({ dataDir, consumers: false });
      try {
        expect(second.runtime.endpoints).toEqual(endpoints);
        const res = await fetch(link);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('kept');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
