/** The composer's request: only what differs from the API's defaults is sent, and the curl shown is that request. */
import { describe, expect, it } from 'vitest';
import { frameSize, SCENE_DEFAULTS } from '../../../console/src/options.ts';
import { type ClipDraft, type ComposerDraft, curlCommand, recordingProblems, requestBody } from '../../../console/src/request.ts';

const clip = (overrides: Partial<ClipDraft> = {}): ClipDraft => ({
  id: 1,
  kind: 'new',
  clipUid: '',
  botUid: 'bot_ava',
  speech: 'text',
  audio: null,
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
  size: '',
  overlays: [],
  ...overrides,
});
const draft = (overrides: Partial<ComposerDraft> = {}): ComposerDraft => ({
  webhook: 'https://example.com/hook',
  voiceOnly: false,
  aspectRatio: '16:9',
  resolution: '720p',
  captions: 'none',
  scene: { ...SCENE_DEFAULTS },
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

  it('sends the scene: bot_size and overlays on the clip; logo, theme and music on the video, only when chosen', () => {
    const overlays: ClipDraft['overlays'] = [
      { id: 1, type: 'text', text: 'Ana Pérez, CEO', style: 'lower_third', url: '', start: '0', end: '4', position: '', size: 0.2 },
      {
        id: 2,
        type: 'image',
        text: '',
        style: 'title',
        url: ' https://example.com/badge.png ',
        start: '1.5',
        end: '',
        position: 'top-left',
        size: 0.1,
      },
      { id: 3, type: 'text', text: 'Typed wrong', style: 'title', url: '', start: 'soon', end: '', position: '', size: 0.2 },
    ];
    const scene = {
      ...SCENE_DEFAULTS,
      logoUrl: 'https://example.com/logo.png',
      font: 'inter',
      primaryColor: '#112233',
      music: 'preset' as const,
      musicPreset: 'calm',
      musicVolume: 0.3,
    };
    const body = requestBody(draft({ aspectRatio: '9:16', scene, clips: [clip({ size: 'full', overlays })] }));
    expect(body).toEqual({
      webhook: 'https://example.com/hook',
      aspect_ratio: '9:16',
      logo: { url: 'https://example.com/logo.png', position: 'top-right', size: 0.12, opacity: 1 },
      theme: { font: 'inter', primary_color: '#112233' },
      music: { preset: 'calm', volume: 0.3 },
      clips: [
        {
          bot_uid: 'bot_ava',
          text: 'Hola, bienvenidos.',
          bot_size: 'full',
          overlays: [
            { type: 'text', text: 'Ana Pérez, CEO', style: 'lower_third', start: 0, end: 4 },
            { type: 'image', url: 'https://example.com/badge.png', size: 0.1, start: 1.5, position: 'top-left' },
            // What is not a number is sent as typed: the API names the field.
            { type: 'text', text: 'Typed wrong', style: 'title', start: 'soon' },
          ],
        },
      ],
    });
    // Voice only: no picture, so no logo or theme, but the music still plays under the voice.
    const voice = requestBody(draft({ voiceOnly: true, scene: { ...scene, music: 'url', musicUrl: 'https://example.com/bed.mp3' } }));
    expect(voice).toEqual(expect.objectContaining({ music: { url: 'https://example.com/bed.mp3', volume: 0.3 } }));
    expect(voice).not.toHaveProperty('logo');
    expect(voice).not.toHaveProperty('theme');
  });

  it('knows each frame size the API renders', () => {
    expect(frameSize('16:9', '720p')).toEqual({ width: 1280, height: 720 });
    expect(frameSize('16:9', '1080p')).toEqual({ width: 1920, height: 1080 });
    expect(frameSize('9:16', '720p')).toEqual({ width: 720, height: 1280 });
    expect(frameSize('9:16', '1080p')).toEqual({ width: 1080, height: 1920 });
    expect(frameSize('1:1', '720p')).toEqual({ width: 720, height: 720 });
    expect(frameSize('1:1', '1080p')).toEqual({ width: 1080, height: 1080 });
  });

  it("sends a clip's own recording as audio_upload with its transcript and the voice naming its language; the curl says to upload it first", () => {
    const audio = new File([new Uint8Array(16)], 'voice-recording.webm', { type: 'audio/webm' });
    const recorded = draft({ clips: [clip({ speech: 'recording', audio, voice: 'espeak:es', text: ' he was not an ill disposed young man ' })] });
    expect(requestBody(recorded, new Map([[1, 'upl_abc']])).clips).toEqual([
      { bot_uid: 'bot_ava', audio_upload: 'upl_abc', text: 'he was not an ill disposed young man', voice: 'espeak:es' },
    ]);
    // No transcript: none is sent (the mouth then follows the sound, and there are no captions).
    expect(requestBody(draft({ clips: [clip({ speech: 'recording', audio, text: '' })] }), new Map([[1, 'upl_abc']])).clips).toEqual([
      { bot_uid: 'bot_ava', audio_upload: 'upl_abc' },
    ]);
    const curl = curlCommand('http://127.0.0.1:3000', requestBody(recorded));
    expect(curl.split('\n')[0]).toBe('# First upload each recording (see docs/uploads.md); its upload_id replaces UPLOAD_ID_OF_THE_RECORDING.');
    expect(curl).toContain('"audio_upload": "UPLOAD_ID_OF_THE_RECORDING"');
    expect(recordingProblems(recorded)).toEqual([]);
    expect(recordingProblems(draft({ clips: [clip(), clip({ id: 2, speech: 'recording' })] }))).toEqual([
      { path: 'clips[1].audio_upload', message: 'record your voice, or choose a recording' },
    ]);
  });
});
