/** The composer's request: only what differs from the API's defaults is sent, and the curl shown is that request. */
import { describe, expect, it } from 'vitest';
import { frameSize } from '../../../console/src/options.ts';
import { type ClipDraft, type ComposerDraft, curlCommand, requestBody } from '../../../console/src/request.ts';

const clip = (overrides: Partial<ClipDraft> = {}): ClipDraft => ({
  id: 1,
  kind: 'new',
  clipUid: '',
  botUid: 'bot_ava',
  voice: '',
  text: 'Hola, bienvenidos.',
  position: null,
  removeBackground: false,
  background: '',
  backgroundVolume: 0.2,
  entry: '',
  exit: '',
  keep: false,
  name: '',
  ...overrides,
});
const draft = (overrides: Partial<ComposerDraft> = {}): ComposerDraft => ({
  webhook: 'https://example.com/hook',
  voiceOnly: false,
  aspectRatio: '16:9',
  resolution: '720p',
  captions: 'none',
  clips: [clip()],
  ...overrides,
});

describe('console request', () => {
  it('sends no video option and no voice when all are the defaults', () => {
    expect(requestBody(draft())).toEqual({ webhook: 'https://example.com/hook', clips: [{ bot_uid: 'bot_ava', text: 'Hola, bienvenidos.' }] });
  });

  it('sends aspect_ratio, resolution, captions and a clip voice when chosen', () => {
    const body = requestBody(
      draft({ aspectRatio: '9:16', resolution: '1080p', captions: 'burn', clips: [clip({ voice: 'espeak:es' }), clip({ id: 2 })] }),
    );
    expect(body).toEqual({
      webhook: 'https://example.com/hook',
      aspect_ratio: '9:16',
      resolution: '1080p',
      captions: 'burn',
      clips: [
        { bot_uid: 'bot_ava', text: 'Hola, bienvenidos.', voice: 'espeak:es' },
        { bot_uid: 'bot_ava', text: 'Hola, bienvenidos.' },
      ],
    });
  });

  it('sends only the options that differ: a square 720p video is aspect_ratio alone', () => {
    expect(requestBody(draft({ aspectRatio: '1:1' }))).toEqual(expect.objectContaining({ aspect_ratio: '1:1' }));
    expect(Object.keys(requestBody(draft({ aspectRatio: '1:1' })))).toEqual(['webhook', 'aspect_ratio', 'clips']);
  });

  it('sends no picture options for voice only (an MP3 has no frame), but still the clip voice', () => {
    const body = requestBody(
      draft({ voiceOnly: true, aspectRatio: '9:16', resolution: '1080p', captions: 'burn', clips: [clip({ voice: 'polly:Lucia' })] }),
    );
    expect(body).toEqual({
      webhook: 'https://example.com/hook',
      create_video: false,
      clips: [{ bot_uid: 'bot_ava', text: 'Hola, bienvenidos.', voice: 'polly:Lucia' }],
    });
  });

  it('a kept clip carries no voice (it is reused as rendered)', () => {
    expect(requestBody(draft({ clips: [clip({ kind: 'kept', clipUid: 'clip_1', voice: 'espeak:es' })] })).clips).toEqual([{ clip_uid: 'clip_1' }]);
  });

  it('shows the new fields in the curl command, which is the body as JSON', () => {
    const body = requestBody(draft({ aspectRatio: '9:16', captions: 'burn', clips: [clip({ voice: 'espeak:es' })] }));
    const command = curlCommand('http://127.0.0.1:3000', body);
    expect(command).toContain('"aspect_ratio": "9:16"');
    expect(command).toContain('"captions": "burn"');
    expect(command).toContain('"voice": "espeak:es"');
    expect(command).not.toContain('resolution');
    const json = command.slice(command.indexOf("-d '") + 4, command.lastIndexOf("'"));
    expect(JSON.parse(json)).toEqual(body);
  });

  it('knows each frame size the API renders', () => {
    expect(frameSize('16:9', '720p')).toEqual({ width: 1280, height: 720 });
    expect(frameSize('16:9', '1080p')).toEqual({ width: 1920, height: 1080 });
    expect(frameSize('9:16', '720p')).toEqual({ width: 720, height: 1280 });
    expect(frameSize('9:16', '1080p')).toEqual({ width: 1080, height: 1920 });
    expect(frameSize('1:1', '720p')).toEqual({ width: 720, height: 720 });
    expect(frameSize('1:1', '1080p')).toEqual({ width: 1080, height: 1080 });
  });
});
