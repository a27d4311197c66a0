import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { type ReceivedRequest, SigV4Verifier } from '#infra/local/sigv4.ts';

const credentials = { accessKeyId: 'VIDBOTLOCAL', secretAccessKey: 'the-data-dir-secret' };
const region = 'us-east-1';
const host = '127.0.0.1:4567';

/** The signing side's hash, as @smithy/hash-node builds it: a plain hash, or an HMAC when given a secret. */
class Sha256 {
  private readonly hash;
  constructor(secret?: string | Uint8Array) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  }
  update(data: string | Uint8Array) {
    this.hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

const signer = (service: string, secret = credentials.secretAccessKey) =>
  new SignatureV4({
    credentials: { ...credentials, secretAccessKey: secret },
    region,
    service,
    sha256: Sha256 as never,
    uriEscapePath: service !== 's3',
  });

/** A DynamoDB call as the SDK sends it, signed at `signingDate`. */
async function signedDynamoCall(body: string, options: { signingDate?: Date; secret?: string; service?: string } = {}): Promise<ReceivedRequest> {
  const signed = await signer(options.service ?? 'dynamodb', options.secret).sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 4567,
      path: '/',
      query: {},
      headers: { host, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.Scan' },
      body,
    },
    { signingDate: options.signingDate },
  );
  return { method: 'POST', url: '/', headers: signed.headers as Record<string, string>, body: Buffer.from(body) };
}

/** A presigned GET as getSignedUrl makes it. */
async function presignedGet(path: string, expiresIn: number, signingDate = new Date()): Promise<ReceivedRequest> {
  const request = {
    method: 'GET',
    protocol: 'http:',
    hostname: '127.0.0.1',
    port: 4567,
    path,
    query: { 'response-content-disposition': 'attachment; filename="v.mp4"' },
    headers: { host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
  };
  const { query } = await signer('s3').presign(request, { expiresIn, signingDate, unsignableHeaders: new Set(['content-type']) });
  const search = Object.entries(query!)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v as string)}`)
    .join('&');
  return { method: 'GET', url: `${path}?${search}`, headers: { host } };
}

describe('SigV4Verifier', () => {
  const dynamodb = new SigV4Verifier(credentials, region, 'dynamodb');
  const s3 = new SigV4Verifier(credentials, region, 's3');

  it('accepts what the SDK signs with the credentials, and nothing altered', async () => {
    const genuine = await signedDynamoCall('{"TableName":"vidbot-keys"}');
    expect(await dynamodb.verify(genuine)).toEqual({ ok: true, presigned: false });
    expect(await dynamodb.verify({ ...genuine, body: Buffer.from('{"TableName":"vidbot-accounts"}') })).toMatchObject({ ok: false });
    expect(await dynamodb.verify({ ...genuine, headers: { ...genuine.headers, 'x-amz-target': 'DynamoDB_20120810.PutItem' } })).toMatchObject({
      ok: false,
    });
    expect(await dynamodb.verify({ ...genuine, headers: { ...genuine.headers, authorization: undefined } })).toMatchObject({ ok: false });
  });

  it('refuses another secret, another service scope and a stale date', async () => {
    expect(await dynamodb.verify(await signedDynamoCall('{}', { secret: 'S3RVER' }))).toMatchObject({
      ok: false,
      reason: 'signature does not match',
    });
    expect(await dynamodb.verify(await signedDynamoCall('{}', { service: 'sqs' }))).toMatchObject({ ok: false, reason: 'wrong credential scope' });
    expect(await dynamodb.verify(await signedDynamoCall('{}', { signingDate: new Date(Date.now() - 20 * 60_000) }))).toMatchObject({
      ok: false,
      reason: 'request time too skewed',
    });
  });

  it('checks a presigned link: its path, its parameters, its expiry', async () => {
    const link = await presignedGet('/vidbot-local/outputs/v%201.mp4', 60);
    expect(await s3.verify(link)).toEqual({ ok: true, presigned: true });
    expect(await s3.verify({ ...link, url: link.url.replace('v%201.mp4', 'v%202.mp4') })).toMatchObject({ ok: false });
    expect(await s3.verify({ ...link, url: link.url.replace('attachment', 'inline') })).toMatchObject({ ok: false });
    expect(await s3.verify({ ...link, method: 'PUT' })).toMatchObject({ ok: false });
    const old = await presignedGet('/vidbot-local/outputs/v.mp4', 60, new Date(Date.now() - 120_000));
    expect(await s3.verify(old)).toMatchObject({ ok: false, reason: 'presigned link expired' });
    expect(await dynamodb.verify(link)).toMatchObject({ ok: false });
  });
});
