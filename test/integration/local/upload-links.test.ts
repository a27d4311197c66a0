/**
 * An upload's presigned PUT against the local S3 emulator behind its signing front, as a caller and a browser use
 * it: the declared file is stored; another size or type, another key, or a link used to read is refused; a browser's
 * preflight for the PUT is answered from the bucket's CORS rule, and nothing else may cross origins.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { uploadFileKey } from '#domain/bucket-layout';
import { type Emulators, startEmulators } from '#infra/local/emulators.ts';
import { localNames } from '#infra/local/runtime.ts';

let dataDir: string;
let emulators: Emulators;
let objects: S3ObjectStore;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vidbot-upload-links-'));
  emulators = await startEmulators(dataDir, {}, localNames.bucket);
  objects = new S3ObjectStore(emulators.s3, localNames.bucket);
}, 60_000);
afterAll(async () => {
  await emulators?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const FILE = Buffer.from('RIFF....WAVEfmt a recording, byte for byte');
const link = (key: string, contentType = 'audio/wav', sizeBytes = FILE.length) =>
  objects.presignPut(key, { contentType, sizeBytes, expiresInSeconds: 600 });
const put = (url: string, body: Buffer, headers: Record<string, string> = { 'Content-Type': 'audio/wav' }) =>
  fetch(url, { method: 'PUT', body, headers });

describe('an upload link', () => {
  it('stores exactly the declared file, and a browser may send it', async () => {
    const key = uploadFileKey('acct_a', 'upl_AAAAAAAAAAAAAAAA');
    const { url } = await link(key);
    const answer = await put(url, FILE, { 'Content-Type': 'audio/wav', Origin: 'http://127.0.0.1:3000' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect((await objects.head(key))?.sizeBytes).toBe(FILE.length);
  });

  it('refuses another size, another content type, and the link used to read', async () => {
    const key = uploadFileKey('acct_a', 'upl_BBBBBBBBBBBBBBBB');
    const { url } = await link(key);
    expect((await put(url, Buffer.concat([FILE, Buffer.from('more')]))).status).toBe(403);
    expect((await put(url, FILE.subarray(1))).status).toBe(403);
    expect((await put(url, FILE, { 'Content-Type': 'text/html' })).status).toBe(403);
    expect((await fetch(url)).status).toBe(403);
    expect(await objects.head(key)).toBeUndefined();
  });

  it('writes nothing outside upload-files/, even with a valid signature', async () => {
    const { url } = await link('renders/poisoned.mp4');
    expect((await put(url, FILE)).status).toBe(403);
    expect(await objects.head('renders/poisoned.mp4')).toBeUndefined();
  });

  it("answers a browser's preflight for an upload's PUT from the CORS rule, and no other", async () => {
    const { url } = await link(uploadFileKey('acct_a', 'upl_CCCCCCCCCCCCCCCC'));
    const preflight = (target: string, method: string) =>
      fetch(target, {
        method: 'OPTIONS',
        headers: { Origin: 'http://127.0.0.1:3000', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' },
      });
    const ok = await preflight(url, 'PUT');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-methods')).toContain('PUT');
    expect((await preflight(url, 'DELETE')).status).toBe(403);
    expect((await preflight((await link('renders/x.mp4')).url, 'PUT')).status).toBe(403);
  });
});
