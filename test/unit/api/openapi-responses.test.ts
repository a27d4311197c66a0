/**
 * The OpenAPI document's response and webhook schemas (functions/api/openapi-responses.ts) hold for what the
 * presenters build: the SDK's types are generated from them, so a presenter that drifts breaks this test, not a caller.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '#functions/api/openapi.ts';
import { buildVideoEvent, toCreatedVideo, toPublicVideo } from '#functions/commons/presenters/video.ts';
import { videoRecord } from '../webhooks/fixtures.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openapi', ...openApiDocument('http://svc') });
const check = (schema: string, value: unknown) => {
  const validate = ajv.getSchema(`openapi#/components/schemas/${schema}`)!;
  const ok = validate(value);
  return ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

describe('the response schemas hold for the presenters', () => {
  it('a created video', () => {
    expect(
      check(
        'CreatedVideo',
        toCreatedVideo({ videoId: 'vid_1', status: 'queued', createVideo: true, clipCount: 2, createdAt: 'now', test: false }, 'http://svc'),
      ),
    ).toEqual([]);
  });

  it('a video: completed with its links, failed with its error, a test video at 360p', () => {
    const link = { url: 'https://files/v.mp4', expiresAt: 'later' };
    expect(check('Video', toPublicVideo(videoRecord(), 'http://svc', link, link, { vtt: link, srt: link }))).toEqual([]);
    const failed = videoRecord({ status: 'failed', output: undefined, error: { code: 'render_failed', message: 'no', clipIndex: 1 } });
    expect(check('Video', toPublicVideo(failed, 'http://svc'))).toEqual([]);
    const test = videoRecord({ test: true, shape: { aspectRatio: '9:16', resolution: '360p' } });
    expect(check('Video', toPublicVideo(test, 'http://svc', link))).toEqual([]);
  });

  it("a video's webhook event, completed and failed", () => {
    const links = { url: 'https://files/v.mp4', expiresAt: 'later', posterUrl: 'https://files/v.jpg', captions: { vtt_url: 'a', srt_url: 'b' } };
    expect(check('VideoEvent', buildVideoEvent(videoRecord(), links, new Date()))).toEqual([]);
    const failed = videoRecord({ status: 'failed', output: undefined, error: { code: 'render_failed', message: 'no' } });
    expect(check('VideoEvent', buildVideoEvent(failed, {}, new Date()))).toEqual([]);
  });

  it('fails a shape the schema does not allow (the check can fail)', () => {
    expect(check('Video', { ...toPublicVideo(videoRecord(), 'http://svc'), status: 'exploded' })).not.toEqual([]);
  });
});
