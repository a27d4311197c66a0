/**
 * A video upload larger than any recording a video bot takes (its only use): asked for, stored and claimed, it was
 * read whole into the prepare function's disk and memory before the preparation refused it as video_too_large.
 * Its size is now refused when the upload is asked for, and a claim refuses an upload recorded before that.
 */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { UploadStore } from '#domain/ports';
import { claimUpload, parseUploadRequest, type Upload } from '#domain/uploads';

const problemsOf = (attempt: () => unknown) => {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).problems;
  }
  throw new Error('not refused');
};

describe('a video upload over the recording limit', () => {
  it('is refused at size when asked for, as no video bot could be made of it', () => {
    expect(parseUploadRequest({ content_type: 'video/mp4', size: limits.maxRecordingBytes })).toMatchObject({ size: limits.maxRecordingBytes });
    expect(problemsOf(() => parseUploadRequest({ content_type: 'video/webm', size: limits.maxRecordingBytes + 1 }))).toEqual([
      { path: 'size', message: `must be at most ${limits.maxRecordingBytes} bytes for video/webm` },
    ]);
  });

  it('recorded larger before, is refused at the field that names it without being taken or read', async () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const big: Upload = {
      tenantId: 'acct_a',
      uploadId: 'upl_0000000000000001',
      kind: 'video',
      contentType: 'video/mp4',
      sizeBytes: 500 * 1024 * 1024,
      createdAt: now.toISOString(),
      expiresAt: now.getTime() / 1000 + 3600,
    };
    let marked = false;
    let headed = false;
    const uploads = {
      get: async () => ({ ...big }),
      markUsed: async () => {
        marked = true;
        return true;
      },
    } as unknown as UploadStore;
    const objects = {
      head: async () => {
        headed = true;
        return { sizeBytes: big.sizeBytes, metadata: {}, lastModified: now };
      },
    };
    const refused = await claimUpload(
      'acct_a',
      big.uploadId,
      { kind: 'video', path: 'video_upload', usedBy: 'bot:me:1' },
      { uploads, objects, now: () => now },
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InvalidRequestError).problems).toEqual([
      { path: 'video_upload', message: `holds ${big.sizeBytes} bytes; a recording may have at most ${limits.maxRecordingBytes}` },
    ]);
    expect({ marked, headed }).toEqual({ marked: false, headed: false });
  });
});
