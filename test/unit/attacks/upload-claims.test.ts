/**
 * Naming an upload (audio_upload, video_upload) as an attacker would: another account's id, an expired one, one
 * whose stored file is not the declared one, one of the wrong kind, and one id used twice (in turn and at once).
 * Every refusal is a 400 at the naming field that tells nothing of other accounts.
 */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, NotFoundError, TooManyPendingUploadsError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { ObjectHead, UploadStore } from '#domain/ports';
import { claimUpload, parseUploadRequest, startUpload, type Upload, withdrawUpload } from '#domain/uploads';
import { liveAccountsOnly } from '../../support/fakes.ts';

/** An upload table that behaves as the DynamoDB adapter: keyed by account and id, markUsed a conditional write. */
class MemoryUploads implements UploadStore {
  readonly items = new Map<string, Upload>();
  async put(upload: Upload) {
    this.items.set(`${upload.tenantId}/${upload.uploadId}`, { ...upload });
  }
  async get(tenantId: string, uploadId: string) {
    const item = this.items.get(`${tenantId}/${uploadId}`);
    return item && { ...item };
  }
  async markUsed(tenantId: string, uploadId: string, usedBy: string, countsUntil?: number) {
    // The read and the write are one step, as DynamoDB's condition makes them; an await in between lets claims interleave.
    await Promise.resolve();
    const item = this.items.get(`${tenantId}/${uploadId}`);
    if (!item || item.usedBy) return false;
    item.usedBy = usedBy;
    if (countsUntil !== undefined) item.countsUntil = countsUntil;
    return true;
  }
  async release(tenantId: string, uploadId: string, usedBy: string) {
    const item = this.items.get(`${tenantId}/${uploadId}`);
    if (item?.usedBy === usedBy) delete item.usedBy;
  }
  async countPending(tenantId: string, nowSeconds: number) {
    return [...this.items.values()].filter(
      (u) => u.tenantId === tenantId && u.expiresAt > nowSeconds && (!u.usedBy || (u.countsUntil ?? 0) > nowSeconds),
    ).length;
  }
}

let clock = new Date('2026-11-27T12:00:00Z');
let ids = 0;

async function world() {
  const uploads = new MemoryUploads();
  const files = new Map<string, ObjectHead>();
  const deps = {
    uploads,
    accounts: liveAccountsOnly,
    objects: {
      presignPut: async (key: string) => ({ url: `https://bucket.test/${key}`, expiresAt: clock.toISOString() }),
      head: async (key: string) => files.get(key),
    },
    now: () => clock,
    newUploadId: () => `upl_${String(++ids).padStart(16, '0')}`,
  };
  /** Asks for an upload and stores its file, as a caller's PUT would. */
  const upload = async (tenantId: string, contentType: string, size: number, storedSize = size) => {
    const started = await startUpload(tenantId, parseUploadRequest({ content_type: contentType, size }), deps);
    files.set(new URL(started.put.url).pathname.slice(1), { sizeBytes: storedSize, metadata: {}, lastModified: clock });
    return started.upload.uploadId;
  };
  const claim = (tenantId: string, uploadId: string, kind: 'audio' | 'video' = 'audio', usedBy = 'vid_1') =>
    claimUpload(tenantId, uploadId, { kind, path: 'clips[0].audio_upload', usedBy }, deps);
  return { uploads, files, upload, claim, deps };
}

const refusal = async (attempt: Promise<unknown>) => {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidRequestError);
  return (error as InvalidRequestError).problems;
};

describe('claiming an upload', () => {
  it("gives the caller its own upload once, with the file's key under its account", async () => {
    const { upload, claim, uploads } = await world();
    const id = await upload('acct_a', 'audio/wav', 1000);
    const claimed = await claim('acct_a', id);
    expect(claimed.key).toBe(`upload-files/acct_a/${id}`);
    expect((await uploads.get('acct_a', id))?.usedBy).toBe('vid_1');
  });

  it("refuses another account's id exactly as an id that never existed", async () => {
    const { upload, claim } = await world();
    const id = await upload('acct_a', 'audio/wav', 1000);
    const theirs = await refusal(claim('acct_b', id));
    const unknown = await refusal(claim('acct_b', 'upl_0000000000009999'));
    const malformed = await refusal(claim('acct_b', '../acct_a/x'));
    expect(theirs).toEqual([{ path: 'clips[0].audio_upload', message: 'is not an upload of this account (POST /v1/uploads)' }]);
    expect(unknown).toEqual(theirs);
    expect(malformed).toEqual(theirs);
  });

  it('refuses an expired upload, even one whose record the table has not yet removed', async () => {
    const { upload, claim } = await world();
    const id = await upload('acct_a', 'audio/wav', 1000);
    const asked = clock;
    clock = new Date(asked.getTime() + limits.uploadLifetimeSeconds * 1000);
    try {
      expect(await refusal(claim('acct_a', id))).toEqual([
        { path: 'clips[0].audio_upload', message: 'has expired: an upload may be used for a day after it was asked for' },
      ]);
    } finally {
      clock = asked;
    }
  });

  it('refuses a file that is not the declared one, or not there yet', async () => {
    const { upload, claim, files } = await world();
    const grown = await upload('acct_a', 'audio/wav', 1000, 1001);
    expect(await refusal(claim('acct_a', grown))).toEqual([{ path: 'clips[0].audio_upload', message: 'holds 1001 bytes, not the 1000 declared' }]);
    const missing = await upload('acct_a', 'audio/wav', 1000);
    files.delete(`upload-files/acct_a/${missing}`);
    expect(await refusal(claim('acct_a', missing))).toEqual([
      { path: 'clips[0].audio_upload', message: 'has no file yet: PUT the file to the upload_url first' },
    ]);
  });

  it('refuses an upload of the other kind (footage named as a recording, and back)', async () => {
    const { upload, claim } = await world();
    const footage = await upload('acct_a', 'video/mp4', 1000);
    expect(await refusal(claim('acct_a', footage, 'audio'))).toEqual([
      { path: 'clips[0].audio_upload', message: 'is a video upload (video/mp4); this field takes audio' },
    ]);
    const recording = await upload('acct_a', 'audio/webm', 1000);
    expect((await refusal(claim('acct_a', recording, 'video')))[0]!.message).toBe('is an audio upload (audio/webm); this field takes video');
  });

  it('serves one request: a second use is refused, and of two at once exactly one wins', async () => {
    const { upload, claim } = await world();
    const id = await upload('acct_a', 'audio/wav', 1000);
    await claim('acct_a', id, 'audio', 'vid_1');
    expect(await refusal(claim('acct_a', id, 'audio', 'vid_2'))).toEqual([
      { path: 'clips[0].audio_upload', message: 'was already used by another request; upload the file again' },
    ]);
    const raced = await upload('acct_a', 'audio/wav', 1000);
    const outcomes = await Promise.allSettled([claim('acct_a', raced, 'audio', 'vid_3'), claim('acct_a', raced, 'audio', 'vid_4')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it("withdraws an upload not used yet: it is named as withdrawn, no longer pending, its file deleted; a used one stays its request's", async () => {
    const { uploads, upload, claim, files } = await world();
    const deleted: string[] = [];
    const objects = {
      delete: async (key: string) => {
        deleted.push(key);
        files.delete(key);
      },
    };
    const id = await upload('acct_a', 'audio/wav', 1000);
    expect(await uploads.countPending('acct_a', clock.getTime() / 1000)).toBe(1);
    await withdrawUpload('acct_a', id, { uploads, objects });
    expect(deleted).toEqual([`upload-files/acct_a/${id}`]);
    // It counts until its PUT link ends, an hour after it was asked for: its link could still store a file.
    expect(await uploads.countPending('acct_a', clock.getTime() / 1000)).toBe(1);
    expect(await uploads.countPending('acct_a', clock.getTime() / 1000 + 3600)).toBe(0);
    expect(await refusal(claim('acct_a', id))).toEqual([
      { path: 'clips[0].audio_upload', message: 'was withdrawn (DELETE /v1/uploads/{upload_id}); upload the file again' },
    ]);
    await expect(withdrawUpload('acct_a', id, { uploads, objects })).rejects.toBeInstanceOf(NotFoundError);
    // Another account's id reads as unknown; a used one is its request's.
    const used = await upload('acct_a', 'audio/wav', 1000);
    await expect(withdrawUpload('acct_b', used, { uploads, objects })).rejects.toBeInstanceOf(NotFoundError);
    await claim('acct_a', used);
    await expect(withdrawUpload('acct_a', used, { uploads, objects })).rejects.toMatchObject({ code: 'upload_in_use' });
    expect(deleted).toHaveLength(1);
  });

  it('refuses at POST a size over the policy of its kind and a content type not allowed', () => {
    expect(() => parseUploadRequest({ content_type: 'video/mp4', size: limits.maxUploadBytes.video + 1 })).toThrow(InvalidRequestError);
    expect(() => parseUploadRequest({ content_type: 'image/svg+xml', size: 10 })).toThrow(InvalidRequestError);
    expect(() => parseUploadRequest({ content_type: 'audio/wav; codecs=1', size: 10 })).toThrow(InvalidRequestError);
  });
});

describe('reserving uploads', () => {
  it(`holds one account to ${limits.maxPendingUploads} uploads neither used nor expired; another account and a used or expired one are not counted`, async () => {
    const { upload, claim, uploads } = await world();
    const ids: string[] = [];
    for (let i = 0; i < limits.maxPendingUploads; i++) ids.push(await upload('acct_a', 'video/mp4', limits.maxUploadBytes.video));
    const before = uploads.items.size;
    const refused = await upload('acct_a', 'video/mp4', limits.maxUploadBytes.video).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyPendingUploadsError);
    expect(uploads.items.size).toBe(before);
    // Another account is not held by A's uploads.
    await upload('acct_b', 'audio/wav', 1000);
    // A used upload frees its place.
    await claim('acct_a', ids[0]!, 'video');
    await upload('acct_a', 'audio/wav', 1000);
    await expect(upload('acct_a', 'audio/wav', 1000)).rejects.toBeInstanceOf(TooManyPendingUploadsError);
    // So do expired ones.
    clock = new Date(clock.getTime() + (limits.uploadLifetimeSeconds + 1) * 1000);
    await upload('acct_a', 'audio/wav', 1000);
  });
});
