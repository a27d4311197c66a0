/**
 * A video's record, as stored, stays well inside DynamoDB's 400 KB item limit in the worst case the create request
 * allows: every text at its length in 3-byte letters (Vietnamese letters are Latin, so a transcript of them passes
 * the script check), every overlay, name and URL at its limit. The recordings' transcripts are bounded per video
 * (limits.maxTotalTranscriptChars): without that bound, ten 12,000-character transcripts would pass 400 KB.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import { counter, dynamo, submit, useRenderPipeline } from '../../support/render-pipeline.ts';

useRenderPipeline(() => new Date('2026-11-28T09:30:00Z'));

/** An attribute's size by DynamoDB's item-size rules: UTF-8 strings, numbers by their digits, 3 bytes a map or list and 1 an element. */
function attributeBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/[-.]/g, '').replace(/^0+/, '').length / 2) + 1;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.M) return 3 + Object.entries(value.M).reduce((n, [name, v]) => n + Buffer.byteLength(name) + attributeBytes(v) + 1, 0);
  if (value.L) return 3 + value.L.reduce((n, v) => n + attributeBytes(v) + 1, 0);
  throw new Error(`an attribute of a kind the record does not use: ${Object.keys(value).join()}`);
}
async function storedBytes(videoId: string): Promise<number> {
  const { Item } = await dynamo.client.send(new GetCommand({ TableName: 'videos', Key: { videoId } }));
  const item = marshall(Item!, { removeUndefinedValues: true });
  return Object.entries(item).reduce((n, [name, v]) => n + Buffer.byteLength(name) + attributeBytes(v), 0);
}

/** `chars` characters of 3-byte Latin letters in words. */
const letters = (chars: number) => 'ệệệệệệ '.repeat(Math.ceil(chars / 7)).slice(0, chars - 1) + 'ệ';
const url = (path: string) => `https://example.com/${path}/${'a'.repeat(2000)}`;
const clip = (index: number, text: Record<string, unknown>) => ({
  bot_uid: 'bot_ava',
  clip_name: letters(limits.maxClipNameChars),
  background: url(`background-${index}`),
  overlays: Array.from({ length: limits.maxOverlays }, (_, i) => ({
    type: 'text',
    text: letters(240),
    style: 'caption_box',
    start: i,
    position: 'top-center',
  })),
  ...text,
});
const recorded = (index: number, chars: number) => clip(index, { audio_url: url(`take-${index}`), text: letters(chars) });
const synthesised = (index: number, chars: number) => clip(index, { text: letters(chars) });

const mutableLimits = limits as { maxTotalTranscriptChars: number; maxVideoRecordBytes: number };
const bound = limits.maxTotalTranscriptChars;
const recordBound = limits.maxVideoRecordBytes;
afterEach(() => {
  mutableLimits.maxTotalTranscriptChars = bound;
  mutableLimits.maxVideoRecordBytes = recordBound;
});

describe("a video's stored record at the create request's limits", () => {
  it('lasts within 400 KB at its worst: three 12,000-character transcripts and 10,000 characters of synthesised text', async () => {
    const perRecording = limits.maxRecordedTranscriptChars;
    const recordings = Math.floor(limits.maxTotalTranscriptChars / perRecording);
    const synthesisedClips = limits.maxClips - recordings;
    const clips = [
      ...Array.from({ length: recordings }, (_, i) => recorded(i, perRecording)),
      ...Array.from({ length: synthesisedClips }, (_, i) => synthesised(recordings + i, Math.floor(limits.maxTotalTextChars / synthesisedClips))),
    ];
    await submit(clips);
    const bytes = await storedBytes(`vid_test${counter}`);
    console.log(`worst-case video record within the limits: ${bytes} bytes`);
    expect(bytes).toBeLessThan(300 * 1024);
  }, 60_000);

  it("refuses a video whose recordings' transcripts total more than the bound, with a 400 at clips", async () => {
    const clips = Array.from({ length: 4 }, (_, i) => recorded(i, limits.maxRecordedTranscriptChars));
    const refused = await submit(clips).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InvalidRequestError).problems).toEqual([
      {
        path: 'clips',
        message:
          "the recordings' transcripts total 48000 characters; at most 36000 are allowed (30 minutes of fast speech, the longest a video lasts)",
      },
    ]);
  }, 60_000);

  it('refuses, with a 400 at clips and nothing stored, a video whose fields each within their limits add up past the record size', async () => {
    // The transcripts at their bound, and image overlays' URLs instead of text overlays: each at its limit.
    const recordings = Math.floor(limits.maxTotalTranscriptChars / limits.maxRecordedTranscriptChars);
    const clips = Array.from({ length: limits.maxClips }, (_, index) => ({
      ...(index < recordings ? recorded(index, limits.maxRecordedTranscriptChars) : synthesised(index, 1400)),
      overlays: Array.from({ length: limits.maxOverlays }, (_, i) => ({ type: 'image', url: url(`o-${index}-${i}`), position: 'top-center' })),
    }));
    // A logo (copied onto every clip) and music at their URLs' limit too.
    const fields = { logo: { url: url('logo') }, music: { url: url('music') } };
    mutableLimits.maxVideoRecordBytes = Number.POSITIVE_INFINITY;
    const unbounded = await submit(clips, true, undefined, fields).then(() => storedBytes(`vid_test${counter}`));
    console.log(`the same request without the record bound: ${unbounded} bytes stored`);
    expect(unbounded).toBeGreaterThan(recordBound);
    mutableLimits.maxVideoRecordBytes = recordBound;
    const refused = await submit(clips, true, undefined, fields).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InvalidRequestError).problems).toEqual([
      {
        path: 'clips',
        message: expect.stringMatching(/^the video's clips, overlays, URLs and texts take \d+ KiB together; at most 300 KiB fit one video/),
      },
    ]);
    const { Item } = await dynamo.client.send(new GetCommand({ TableName: 'videos', Key: { videoId: `vid_test${counter}` } }));
    expect(Item).toBeUndefined();
  }, 60_000);

  it('would pass 400 KB without the bound: ten 12,000-character transcripts', async () => {
    mutableLimits.maxTotalTranscriptChars = limits.maxClips * limits.maxRecordedTranscriptChars;
    mutableLimits.maxVideoRecordBytes = Number.POSITIVE_INFINITY;
    const clips = Array.from({ length: limits.maxClips }, (_, i) => recorded(i, limits.maxRecordedTranscriptChars));
    const stored = await submit(clips).then(
      async () => storedBytes(`vid_test${counter}`),
      (error: Error) => error.message,
    );
    console.log(`ten 12,000-character transcripts: ${stored}`);
    expect(typeof stored === 'string' || stored > 400 * 1024).toBe(true);
  }, 60_000);
});
